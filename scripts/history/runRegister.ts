import type { Operation } from './history.js';
import type { Model, Spec } from './model.js';

/**
 * The run register: one run as docs/api.md defines it, seen through start, inspect, continue
 * (with or without answers to pending questions) and cancel.
 *
 * - A start creates the run at version 1, `waiting`; the same Idempotency-Key again answers the
 *   same run at version 1, replayed. (Only answered starts are recorded: an unanswered one names no run.)
 * - A continue takes effect twice. Its claim (version v -> v+1, lifecycle running or queued,
 *   completion pending) needs a nonterminal run with no turn in flight at `expected_version`; its
 *   finalize (v+1 -> v+2) ends in waiting, completed or failed. A cancel between the two wins: the
 *   finalize is discarded and the continue answers `409 run_cancelled`. A restarted server
 *   recovers an orphaned claim the same way a finalize would (v+1 -> v+2, waiting or failed).
 * - A cancel at the current version of a nonterminal run makes it cancelled (v -> v+1).
 * - A refusal changes nothing and reports the version at the instant it took effect:
 *   `run_not_active` (or `budget_exhausted`) on a terminal run, `run_busy` during a turn,
 *   `version_conflict` on another version, then `400 invalid_answer` when an answer names no
 *   pending question (or one twice). `429` (turn bound, rate limit) claims nothing.
 * - A claim removes the questions it answers from `pending_questions`; a finalize's answer says
 *   which are pending after the turn (the turn may ask new ones).
 * - An Idempotency-Key used again with the same body is answered from its receipt (the stored
 *   answer, `Idempotency-Replayed: true`; `idempotency_in_progress` while the turn runs;
 *   `outcome_unknown` after a recovery) and never executes again; with another body it is
 *   `422 idempotency_conflict`. A refused request stores no receipt: the key is free again.
 * - An operation without an answer may or may not have taken effect.
 */
export type RunInput =
  | { readonly kind: 'inspect' }
  | { readonly kind: 'start'; readonly key: string }
  | (Mutation & { readonly kind: 'cancel' })
  | (Mutation & {
      readonly kind: 'continue';
      /** The question ids the continue answers. */
      readonly answers: readonly string[];
    });

interface Mutation {
  readonly key: string;
  readonly expectedVersion: number;
  /** The request body as sent (JSON): a receipt's fingerprint. */
  readonly body: string;
}

export interface RunAnswer {
  readonly status: number;
  readonly replayed: boolean;
  /** A run view's fields (2xx). */
  readonly version?: number;
  readonly lifecycle?: string;
  readonly completion?: string;
  readonly runId?: string;
  /** The ids of the run's pending questions, sorted. */
  readonly pending?: readonly string[];
  /** An error body's fields. */
  readonly code?: string;
  readonly currentVersion?: number;
}

export type RunOperation = Operation<RunInput, RunAnswer>;

/** What a retry under a used key can be answered with. */
type Receipt =
  /** The claim holds the turn: a retry is `idempotency_in_progress`. */
  | { readonly stage: 'processing'; readonly body: string }
  /** A stored answer; a field left undefined is not known to the model yet. */
  | {
      readonly stage: 'stored';
      readonly body: string;
      readonly answer: Partial<RunAnswer>;
      readonly orUnknown: boolean;
    }
  /** Recovered after a crash: a retry is `outcome_unknown`. */
  | { readonly stage: 'unknown'; readonly body: string }
  /** The model cannot tell (a cancelled claim that never answered): any receipt answer. */
  | { readonly stage: 'any'; readonly body: string };

interface RunState {
  /** 0 before the run's start. */
  readonly version: number;
  /** Undefined after a finalize nobody saw: waiting, completed or failed. */
  readonly lifecycle: string | undefined;
  /** Undefined when not known. */
  readonly completion: string | undefined;
  /** The pending question ids, sorted; undefined when not known. */
  readonly pending: readonly string[] | undefined;
  /** The continue whose claim holds the turn. */
  readonly claimer: number | null;
  /** The continue whose claim a cancel overtook: its finalize answers `run_cancelled`. */
  readonly overtaken: number | null;
  readonly receipts: ReadonlyMap<string, Receipt>;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const FINISHED = ['waiting', 'completed', 'failed'] as const;
const IN_TURN = new Set(['running', 'queued']);
const CLAIM = 0;
const FINALIZE = 1;

/** A fresh run: version 1, waiting for its first turn. */
export const freshRun: RunState = {
  version: 1,
  lifecycle: 'waiting',
  completion: 'needs_more_evidence',
  pending: [],
  claimer: null,
  overtaken: null,
  receipts: new Map(),
};

/** Before its start: nothing but a start can name the run. */
const unstarted: RunState = { ...freshRun, version: 0, lifecycle: 'unstarted', completion: undefined };

/** The model; a history that holds the run's start begins before it, any other at `freshRun`. */
export const runRegister = (): Model<RunState, RunInput, RunAnswer> => ({
  name: 'run register',
  specFor: (history) =>
    runSpec(history.some((op) => op.input.kind === 'start') ? unstarted : freshRun, reusedKeys(history)),
  describe: describeRunOperation,
});

const runSpec = (initial: RunState, tracked: ReadonlySet<string>): Spec<RunState, RunInput, RunAnswer> => ({
  initial,
  phases: (op) => (op.input.kind === 'continue' && mayHaveRunATurn(op.output) ? 2 : 1),
  step: (state, op, phase) => {
    const { input } = op;
    if (input.kind === 'inspect') return inspect(state, op.output);
    if (input.kind === 'start') return start(state, op.output);
    if (state.lifecycle === 'unstarted') return op.output === undefined ? [state] : [];
    const receiptKey = tracked.has(`${input.kind}:${input.key}`) ? `${input.kind}:${input.key}` : undefined;
    const request = { op, input, receiptKey };
    if (phase === FINALIZE) return concrete(state).flatMap((s) => finalize(s, request));
    return concrete(state).flatMap((s) => mutate(s, request, phase));
  },
  key: (s) =>
    [
      s.version,
      s.lifecycle ?? '?',
      s.completion ?? '?',
      s.pending?.join(',') ?? '?',
      s.claimer ?? '-',
      s.overtaken ?? '-',
      ...[...s.receipts].sort(([a], [b]) => a.localeCompare(b)).map(([k, r]) => `${k}=${JSON.stringify(r)}`),
    ].join('|'),
});

interface Request {
  readonly op: RunOperation;
  readonly input: Extract<RunInput, { expectedVersion: number }>;
  /** Where this request's receipt lives in the state, when its key is used more than once. */
  readonly receiptKey: string | undefined;
}

/** Keys used by more than one request: only those can be answered from a receipt. */
const reusedKeys = (history: readonly RunOperation[]): Set<string> => {
  const seen = new Set<string>();
  const reused = new Set<string>();
  for (const { input } of history) {
    if (input.kind === 'inspect' || input.kind === 'start') continue;
    const k = `${input.kind}:${input.key}`;
    if (seen.has(k)) reused.add(k);
    seen.add(k);
  }
  return reused;
};

/** A continue ran (or may have run) a turn: it succeeded, was overtaken by a cancel, or has no answer. */
const mayHaveRunATurn = (answer: RunAnswer | undefined): boolean =>
  answer === undefined ||
  (answer.status === 200 && !answer.replayed) ||
  (answer.code === 'run_cancelled' && !answer.replayed);

const inspect = (s: RunState, answer: RunAnswer | undefined): RunState[] => {
  if (answer === undefined || answer.status !== 200) return [s]; // a failed read constrains nothing
  if (answer.version !== s.version) return [];
  const lifecycle = answer.lifecycle ?? '';
  const lifecycleFits =
    s.lifecycle === undefined
      ? (FINISHED as readonly string[]).includes(lifecycle)
      : s.lifecycle === lifecycle || (IN_TURN.has(s.lifecycle) && IN_TURN.has(lifecycle));
  if (!lifecycleFits || (s.completion !== undefined && s.completion !== answer.completion)) return [];
  if (!samePending(s.pending, answer.pending)) return [];
  return [{ ...s, lifecycle, completion: answer.completion, pending: answer.pending ?? s.pending }];
};

const samePending = (known: readonly string[] | undefined, seen: readonly string[] | undefined): boolean =>
  known === undefined || seen === undefined || known.join(',') === seen.join(',');

/** A start's answer is the run at version 1, waiting; fresh only the first time. */
const start = (s: RunState, answer: RunAnswer | undefined): RunState[] => {
  const created = { ...freshRun, receipts: s.receipts };
  if (answer === undefined) return s.lifecycle === 'unstarted' ? [s, created] : [s];
  if (answer.status !== 201 || answer.version !== 1 || answer.lifecycle !== 'waiting') return [];
  if (s.lifecycle === 'unstarted') return [created]; // replayed too: an unanswered attempt created it
  return answer.replayed ? [s] : [];
};

/** A state whose lifecycle is unknown stands for one state per possible lifecycle. */
const concrete = (s: RunState): RunState[] =>
  s.lifecycle !== undefined ? [s] : FINISHED.map((lifecycle) => ({ ...s, lifecycle, completion: undefined }));

const withReceipt = (s: RunState, key: string | undefined, receipt: Receipt): RunState =>
  key === undefined ? s : { ...s, receipts: new Map(s.receipts).set(key, receipt) };

const isRefusal = (a: RunAnswer, code: string, version: number): boolean =>
  !a.replayed && a.status === 409 && a.code === code && a.currentVersion === version;

/** A cancel, or a continue's claim (or a continue refused before claiming). */
const mutate = (s: RunState, request: Request, phase: number): RunState[] => {
  const { op, input, receiptKey } = request;
  const answer = op.output;
  if (answer?.status === 429) return [s];
  const receipt = receiptKey === undefined ? undefined : s.receipts.get(receiptKey);
  if (receipt !== undefined) return fromReceipt(s, request, receipt);
  if (answer !== undefined && (answer.replayed || answer.code === 'idempotency_conflict')) return [];
  if (answer?.code === 'outcome_unknown') return [];
  // A concurrent duplicate of a cancel may meet the reservation its twin holds for an instant.
  if (answer?.code === 'idempotency_in_progress') return input.kind === 'cancel' ? [s] : [];
  const unknown = answer === undefined;
  const refusedWith = (code: string): RunState[] => (unknown || isRefusal(answer, code, s.version) ? [s] : []);
  const terminal = TERMINAL.has(s.lifecycle ?? '');
  if (input.kind === 'cancel') {
    if (terminal) return refusedWith('run_not_active');
    if (input.expectedVersion !== s.version) return refusedWith('version_conflict');
    const cancelled: RunState = {
      ...s,
      version: s.version + 1,
      lifecycle: 'cancelled',
      completion: 'cancelled',
      claimer: null,
      overtaken: s.claimer,
    };
    const stored = withReceipt(cancelled, receiptKey, {
      stage: 'stored',
      body: input.body,
      answer: { status: 200, version: cancelled.version, lifecycle: 'cancelled', completion: 'cancelled' },
      orUnknown: false,
    });
    if (unknown) return [s, stored];
    const fits = answer.status === 200 && answer.version === cancelled.version && answer.lifecycle === 'cancelled';
    return fits ? [stored] : [];
  }
  if (terminal) {
    if (unknown) return [s];
    const codes = s.completion === undefined ? ['run_not_active', 'budget_exhausted'] : [terminalRefusal(s)];
    return codes.some((code) => isRefusal(answer, code, s.version)) ? [s] : [];
  }
  if (s.claimer !== null) return refusedWith('run_busy');
  if (input.expectedVersion !== s.version) return refusedWith('version_conflict');
  const answerable = answersPending(s.pending, input.answers);
  const invalid = unknown || (answer.status === 400 && answer.code === 'invalid_answer') ? [s] : [];
  if (answerable === false) return invalid;
  // The claim had to succeed; a one-phase answer (a refusal) is impossible here.
  const claimable = phase === CLAIM && mayHaveRunATurn(answer);
  if (answerable === true && !claimable) return [];
  const stillPending = s.pending?.filter((q) => !input.answers.includes(q));
  const claimed = withReceipt(
    {
      ...s,
      version: s.version + 1,
      lifecycle: 'running',
      completion: 'pending',
      pending: stillPending,
      claimer: op.id,
    },
    receiptKey,
    { stage: 'processing', body: input.body },
  );
  // Pending questions unknown: the answers were valid (a claim) or not (invalid_answer).
  const outcomes = answerable === undefined ? [...(claimable ? [claimed] : []), ...invalid] : [claimed];
  return unknown ? [s, ...outcomes] : outcomes;
};

/** Whether every answer names a pending question, once; undefined when the pending ones are not known. */
const answersPending = (pending: readonly string[] | undefined, answers: readonly string[]): boolean | undefined => {
  if (new Set(answers).size !== answers.length) return false;
  if (answers.length === 0) return true;
  return pending === undefined ? undefined : answers.every((q) => pending.includes(q));
};

const terminalRefusal = (s: RunState): string =>
  s.completion === 'budget_exhausted' ? 'budget_exhausted' : 'run_not_active';

/** A continue's second instant: its turn's result is written, or discarded after a cancel. */
const finalize = (s: RunState, { op, input, receiptKey }: Request): RunState[] => {
  const answer = op.output;
  if (s.claimer === op.id) {
    const finished = { ...s, version: s.version + 1, claimer: null };
    if (answer === undefined)
      return [
        withReceipt({ ...finished, lifecycle: undefined, completion: undefined, pending: undefined }, receiptKey, {
          stage: 'stored',
          body: input.body,
          answer: { status: 200, version: finished.version },
          orUnknown: true,
        }),
      ];
    const lifecycle = answer.lifecycle ?? '';
    const fits =
      answer.status === 200 &&
      answer.version === finished.version &&
      answer.version === input.expectedVersion + 2 &&
      (FINISHED as readonly string[]).includes(lifecycle);
    if (!fits) return [];
    return [
      withReceipt({ ...finished, lifecycle, completion: answer.completion, pending: answer.pending }, receiptKey, {
        stage: 'stored',
        body: input.body,
        answer: {
          status: 200,
          version: finished.version,
          lifecycle,
          ...(answer.completion === undefined ? {} : { completion: answer.completion }),
        },
        orUnknown: false,
      }),
    ];
  }
  if (s.overtaken === op.id) {
    if (answer !== undefined && !(answer.status === 409 && answer.code === 'run_cancelled')) return [];
    const receipt: Receipt =
      answer === undefined
        ? { stage: 'any', body: input.body }
        : { stage: 'stored', body: input.body, answer: { status: 409, code: 'run_cancelled' }, orUnknown: false };
    return [withReceipt({ ...s, overtaken: null }, receiptKey, receipt)];
  }
  // Its claim was linearized as "did not happen": so did its finalize.
  return answer === undefined ? [s] : [];
};

/** A request under a used key with a receipt: answered from it, never executed again. */
const fromReceipt = (s: RunState, { op, input, receiptKey }: Request, receipt: Receipt): RunState[] => {
  const answer = op.output;
  if (answer === undefined) return [s];
  if (receipt.body !== input.body) return answer.status === 422 && answer.code === 'idempotency_conflict' ? [s] : [];
  const update = (next: Receipt): RunState[] => [withReceipt(s, receiptKey, next)];
  const { stage } = receipt;
  if (answer.code === 'idempotency_in_progress')
    return stage === 'processing' || stage === 'any' || input.kind === 'cancel' ? [s] : [];
  if (answer.code === 'outcome_unknown') {
    const possible = stage === 'unknown' || stage === 'any' || (stage === 'stored' && receipt.orUnknown);
    return possible ? update({ stage: 'unknown', body: receipt.body }) : [];
  }
  if (!answer.replayed) return [];
  if (stage === 'any') return update({ stage: 'stored', body: receipt.body, answer, orUnknown: false });
  if (stage !== 'stored') return [];
  const stored = receipt.answer;
  const same = (field: keyof RunAnswer): boolean => stored[field] === undefined || stored[field] === answer[field];
  if (!(['status', 'code', 'version', 'lifecycle', 'completion'] as const).every(same)) return [];
  return update({ stage: 'stored', body: receipt.body, answer: { ...stored, ...answer }, orUnknown: false });
};

export const describeRunOperation = (op: RunOperation): string => {
  const { input, output } = op;
  const request =
    input.kind === 'inspect'
      ? 'GET run'
      : input.kind === 'start'
        ? `POST start key=${input.key.slice(-8)}`
        : `POST ${input.kind} key=${input.key.slice(-8)} body=${input.body}`;
  const returned = op.returnedAt === Number.POSITIVE_INFINITY ? '∞' : op.returnedAt.toFixed(1);
  const answer =
    output === undefined
      ? 'no answer'
      : output.status === 200
        ? `200 v${String(output.version)} ${String(output.lifecycle)}/${String(output.completion)}`
        : `${output.status} ${String(output.code)} current_version=${String(output.currentVersion)}`;
  return `#${op.id} client ${op.client} [${op.invokedAt.toFixed(1)}..${returned}] ${request} -> ${answer}${output?.replayed === true ? ' (replayed)' : ''}`;
};
