import type { Operation } from './history.js';
import type { Model, Spec } from './model.js';

/**
 * The agent-task call register: one turn's pending agent call as docs/agent-tasks.md defines it,
 * seen through the agent-task MCP tools and the REST continue that opened it. The object is the
 * run turn (in the workload one run has one turn, so the run id names it): every operation that
 * constrains another names this one call.
 *
 * - Claim (ATP-17): on an unclaimed pending call it succeeds (`recovered: false`) and its owner
 *   token is the only one that owns the call; the claimId holding the call claims again with
 *   `recovered: true` and a fresh token, and the old token owns nothing from then on; any other
 *   claimId is `agent_call_claimed`. On an ended call it is `agent_call_not_found`.
 * - Complete (ATP-24, ATP-35): with the current owner token on the pending call, a valid result
 *   ends the call and answers with the run that result made (here: its pending question); an
 *   invalid one is `invalid_request` and changes nothing. Any other token, or an ended call, is
 *   `agent_call_not_found`: a completion is never applied twice, and a retry after the call ended
 *   is refused, not replayed.
 * - Release (docs "Release or abandon"): with the current token, `abandon: false` makes the call
 *   unclaimed and still pending; `abandon: true` ends it (the turn fails `agent_task_abandoned`).
 *   Any other token, or an ended call, is `agent_call_not_found`.
 * - List (ATP-16): a pending call is listed, with `claimed` true exactly when a claim holds it; an
 *   ended call is not listed.
 * - Turn: the continue that opened the call answers once it ended, with the run the ending made
 *   (the winning completion's question, or the abandonment).
 * - An operation without an answer (timeout, reset, 5xx) may or may not have taken effect.
 *
 * Not modelled: lease expiry (issue 31; Helix has none: a claim holds until it is released, the
 * call ends or the process stops, ATP-38), the turn deadline (`turn_timeout`; the workload stays
 * far inside it), cancellation (ATP-36), restarts (ATP-37) and declared tool calls (ATP-19..21).
 * Owner tokens are secrets: the history carries only a short hash of each (`tokenTag`).
 */
export type CallInput =
  | { readonly kind: 'claim'; readonly claimId: string }
  | {
      readonly kind: 'complete';
      readonly tokenTag: string;
      /** The question id the result asks, unique per completion; undefined for an invalid result. */
      readonly question: string | undefined;
    }
  | { readonly kind: 'release'; readonly tokenTag: string; readonly abandon: boolean }
  | { readonly kind: 'list' }
  | { readonly kind: 'turn' };

/** A tool's success (`code` undefined) or refusal (`code`), reduced to what the model speaks of. */
export interface CallAnswer {
  readonly code?: string;
  /** claim: the new owner token's short hash, and whether the claimId already held the call. */
  readonly tokenTag?: string;
  readonly recovered?: boolean;
  /** complete and turn: how the run ended the turn, `question:<id>` or `abandoned` (else raw). */
  readonly outcome?: string;
  /** release. */
  readonly abandoned?: boolean;
  /** list: whether this call is listed, and its `claimed` flag. */
  readonly listed?: boolean;
  readonly claimed?: boolean;
}

export type CallOperation = Operation<CallInput, CallAnswer>;

export interface CallState {
  readonly ended: boolean;
  /** The claim holding the call; its `tokenTag` is undefined when no client learned the token. */
  readonly claim: { readonly claimId: string; readonly tokenTag: string | undefined } | null;
  /** How the call ended: `question:<id>` or `abandoned`; null while pending. */
  readonly outcome: string | null;
}

/** A call just opened by its turn's continue: pending, unclaimed. */
export const openCall: CallState = { ended: false, claim: null, outcome: null };

export const ABANDONED = 'abandoned';
const NOT_FOUND = 'agent_call_not_found';
const CLAIMED = 'agent_call_claimed';
const INVALID = 'invalid_request';

export const questionOutcome = (question: string): string => `question:${question}`;

export const agentTaskCalls = (initial: CallState = openCall): Model<CallState, CallInput, CallAnswer> => ({
  name: 'agent-task call',
  specFor: () => callSpec(initial),
  describe: describeCallOperation,
});

const callSpec = (initial: CallState): Spec<CallState, CallInput, CallAnswer> => ({
  initial,
  phases: () => 1,
  step: (state, op) => {
    const { input, output } = op;
    switch (input.kind) {
      case 'claim':
        return claim(state, input.claimId, output);
      case 'complete':
        return complete(state, input.tokenTag, input.question, output);
      case 'release':
        return release(state, input.tokenTag, input.abandon, output);
      case 'list':
        return list(state, output);
      case 'turn':
        return turn(state, output);
    }
  },
  key: (s) =>
    `${s.ended ? 'ended' : 'pending'}|${s.claim?.claimId ?? '-'}|${s.claim?.tokenTag ?? '?'}|${s.outcome ?? '-'}`,
});

/**
 * The states after an operation whose effect from `s` is `effect` (or a refusal with `refusal`
 * when effect is undefined), given its answer: an unknown answer allows both outcomes.
 */
const settle = (
  s: CallState,
  answer: CallAnswer | undefined,
  effect: { readonly next: CallState; readonly fits: (a: CallAnswer) => boolean } | undefined,
  refusal: string,
): CallState[] => {
  if (answer === undefined) return effect === undefined ? [s] : [s, effect.next];
  if (effect === undefined) return answer.code === refusal ? [s] : [];
  return answer.code === undefined && effect.fits(answer) ? [effect.next] : [];
};

const claim = (s: CallState, claimId: string, answer: CallAnswer | undefined): CallState[] => {
  if (s.ended) return settle(s, answer, undefined, NOT_FOUND);
  if (s.claim !== null && s.claim.claimId !== claimId) return settle(s, answer, undefined, CLAIMED);
  const recovered = s.claim !== null;
  const next = { ...s, claim: { claimId, tokenTag: answer?.tokenTag } };
  return settle(s, answer, { next, fits: (a) => a.recovered === recovered && a.tokenTag !== undefined }, CLAIMED);
};

/** Whether `tokenTag` is the current owner token of the pending call. */
const owns = (s: CallState, tokenTag: string): boolean =>
  !s.ended && s.claim !== null && s.claim.tokenTag !== undefined && s.claim.tokenTag === tokenTag;

const complete = (
  s: CallState,
  tokenTag: string,
  question: string | undefined,
  answer: CallAnswer | undefined,
): CallState[] => {
  if (!owns(s, tokenTag)) return settle(s, answer, undefined, NOT_FOUND);
  // A result the output parser refuses leaves the task open (docs "Complete").
  if (question === undefined) return settle(s, answer, undefined, INVALID);
  const outcome = questionOutcome(question);
  return settle(s, answer, { next: { ...s, ended: true, outcome }, fits: (a) => a.outcome === outcome }, NOT_FOUND);
};

const release = (s: CallState, tokenTag: string, abandon: boolean, answer: CallAnswer | undefined): CallState[] => {
  if (!owns(s, tokenTag)) return settle(s, answer, undefined, NOT_FOUND);
  const next: CallState = abandon ? { ...s, ended: true, outcome: ABANDONED } : { ...s, claim: null };
  return settle(s, answer, { next, fits: (a) => a.abandoned === abandon }, NOT_FOUND);
};

const list = (s: CallState, answer: CallAnswer | undefined): CallState[] => {
  if (answer === undefined || answer.code !== undefined) return [s]; // a failed read constrains nothing
  if (s.ended) return answer.listed === false ? [s] : [];
  return answer.listed === true && answer.claimed === (s.claim !== null) ? [s] : [];
};

const turn = (s: CallState, answer: CallAnswer | undefined): CallState[] => {
  if (answer === undefined || answer.code !== undefined) return [s];
  return s.ended && answer.outcome === s.outcome ? [s] : [];
};

export const describeCallOperation = (op: CallOperation): string => {
  const { input, output } = op;
  const request =
    input.kind === 'claim'
      ? `claim claimId=${input.claimId}`
      : input.kind === 'complete'
        ? `complete token#${input.tokenTag} ${input.question === undefined ? 'invalid result' : `question=${input.question}`}`
        : input.kind === 'release'
          ? `release token#${input.tokenTag}${input.abandon ? ' abandon' : ''}`
          : input.kind;
  const returned = op.returnedAt === Number.POSITIVE_INFINITY ? '∞' : op.returnedAt.toFixed(1);
  return `#${op.id} client ${op.client} [${op.invokedAt.toFixed(1)}..${returned}] ${request} -> ${describeAnswer(output)}`;
};

const describeAnswer = (output: CallAnswer | undefined): string => {
  if (output === undefined) return 'no answer';
  if (output.code !== undefined) return `refused ${output.code}`;
  const fields = [
    output.tokenTag === undefined ? undefined : `token#${output.tokenTag}`,
    output.recovered === undefined ? undefined : `recovered=${String(output.recovered)}`,
    output.outcome,
    output.abandoned === undefined ? undefined : `abandoned=${String(output.abandoned)}`,
    output.listed === undefined ? undefined : output.listed ? `listed claimed=${String(output.claimed)}` : 'not listed',
  ];
  return `ok ${fields.filter((f) => f !== undefined).join(' ')}`;
};
