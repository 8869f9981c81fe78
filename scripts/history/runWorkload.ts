import { exchange, type HttpAnswer, type HttpRequest } from './http.js';
import { type Random, sleep } from './random.js';
import { Recorder, type Outcome } from './recorder.js';
import type { RunAnswer, RunInput, RunOperation } from './runRegister.js';

/** Where the workload sends requests: the servers alive now (a killed one drops out, then returns). */
export interface Target {
  urls(): readonly string[];
  readonly token: string;
}

export interface RunWorkloadOptions {
  /** Runs in play at once; a run that ends is replaced by a new one. */
  readonly runs: number;
  readonly clients: number;
  readonly durationMs: number;
  /** A request unanswered after this long counts as "may or may not have happened". */
  readonly timeoutMs: number;
  /** Each run's step budget, so some runs end in budget_exhausted. */
  readonly maxSteps: number;
  readonly random: Random;
}

export interface RunWorkloadResult {
  readonly history: RunOperation[];
  readonly runsStarted: number;
}

const RUNS = '/api/v1/agent-runs';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const ENDED_CODES = new Set(['run_not_active', 'budget_exhausted']);

/**
 * Concurrent clients drive a few runs with inspect (35%), continue and cancel. Expected versions
 * are mostly the latest the client saw, sometimes one ahead or a few off; 5% of mutations are sent
 * twice at once under one Idempotency-Key; a request without an answer is retried under its key,
 * and an answered one sometimes is; 2% reuse a key with another body.
 */
export const runWorkload = async (target: Target, options: RunWorkloadOptions): Promise<RunWorkloadResult> => {
  const driver = new RunDriver(target, options);
  await driver.fill(options.runs);
  const deadline = Date.now() + options.durationMs;
  await Promise.all(Array.from({ length: options.clients }, (_, id) => driver.client(id, deadline)));
  return { history: driver.recorder.history(), runsStarted: driver.runsStarted };
};

class RunDriver {
  readonly recorder = new Recorder<RunInput, RunAnswer>();
  runsStarted = 0;
  private readonly slots: string[] = [];
  private readonly replacing = new Set<number>();
  private readonly random: Random;

  constructor(
    private readonly target: Target,
    private readonly options: RunWorkloadOptions,
  ) {
    this.random = options.random;
  }

  async fill(runs: number): Promise<void> {
    const started = await Promise.all(Array.from({ length: runs }, () => this.startRun()));
    this.slots.push(...started);
  }

  async client(id: number, deadline: number): Promise<void> {
    const seen = new Map<string, Seen>();
    for (let i = 0; Date.now() < deadline; i++) {
      const slot = this.random.below(this.slots.length);
      const run = this.slots[slot] ?? '';
      const known = seen.get(run) ?? { version: 1, pending: [] };
      const p = this.random.next();
      const outcomes =
        p < 0.35
          ? [await this.call(id, run, { kind: 'inspect' })]
          : await this.mutate(id, run, p < 0.9 ? 'continue' : 'cancel', `${id}-${i}`, known, deadline);
      for (const o of outcomes) if (o.kind === 'answer') seen.set(run, learn(seen.get(run) ?? known, o.output));
      if (outcomes.some(hasEnded)) await this.replace(slot, run);
      if (outcomes.some((o) => o.kind === 'not_sent')) await sleep(100);
    }
  }

  /** One continue or cancel with its concurrent twin, retries and mismatched reuse of its key. */
  private async mutate(
    client: number,
    run: string,
    kind: 'continue' | 'cancel',
    tag: string,
    known: Seen,
    deadline: number,
  ): Promise<Outcome<RunAnswer>[]> {
    const { random } = this;
    const q = random.next();
    const last = known.version;
    const expectedVersion = q < 0.65 ? last : q < 0.85 ? last + 1 : Math.max(1, last + random.below(5) - 2);
    const answers = kind === 'continue' ? this.chooseAnswers(known.pending) : [];
    const inputAt = (version: number, key: string): RunInput => {
      if (kind === 'cancel')
        return {
          kind,
          key,
          expectedVersion: version,
          body: JSON.stringify({ expected_version: version, reason: 'probe' }),
        };
      const body = {
        expected_version: version,
        instruction: 'go on',
        ...(answers.length === 0
          ? {}
          : { answers: answers.map((question_id) => ({ question_id, value: 'the first' })) }),
      };
      return { kind, key, expectedVersion: version, answers, body: JSON.stringify(body) };
    };
    const key = `${kind}-${tag}-${random.tag()}`;
    const input = inputAt(expectedVersion, key);
    const twin = random.chance(0.05) ? sleep(random.below(20)).then(() => this.call(client, run, input)) : undefined;
    let outcome = await this.call(client, run, input);
    const outcomes = [outcome];
    if (twin !== undefined) outcomes.push(await twin);
    for (let retry = 0; retry < 8 && Date.now() < deadline && shouldRetry(outcome, random); retry++) {
      await sleep(outcome.kind === 'answer' ? random.below(50) : 300 + random.below(300));
      outcome = await this.call(client, run, input);
      outcomes.push(outcome);
    }
    if (random.chance(0.02)) outcomes.push(await this.call(client, run, inputAt(expectedVersion + 1, key)));
    return outcomes;
  }

  /** Mostly the pending questions the client saw; sometimes none, or one that is not pending. */
  private chooseAnswers(pending: readonly string[]): string[] {
    const p = this.random.next();
    if (p < 0.05) return ['q_not_asked'];
    return pending.length > 0 && p < 0.8 ? [...pending] : [];
  }

  private call(client: number, run: string, input: RunInput): Promise<Outcome<RunAnswer>> {
    return this.recorder.record(run, client, input, async () =>
      toOutcome(
        await this.send({
          method: input.kind === 'inspect' ? 'GET' : 'POST',
          path: input.kind === 'inspect' ? `${RUNS}/${run}` : `${RUNS}/${run}/${input.kind}`,
          token: this.target.token,
          ...(input.kind === 'inspect' || input.kind === 'start'
            ? {}
            : { idempotencyKey: input.key, body: JSON.parse(input.body) }),
          timeoutMs: this.options.timeoutMs,
        }),
      ),
    );
  }

  private send(request: HttpRequest): Promise<HttpAnswer> {
    const urls = this.target.urls();
    if (urls.length === 0) return Promise.resolve({ kind: 'not_sent' });
    return exchange(this.random.pick(urls), request);
  }

  /** A run that ended makes way for a new one (once, whichever client saw it end first). */
  private async replace(slot: number, run: string): Promise<void> {
    if (this.slots[slot] !== run || this.replacing.has(slot)) return;
    this.replacing.add(slot);
    try {
      this.slots[slot] = await this.startRun();
    } finally {
      this.replacing.delete(slot);
    }
  }

  /** Starts a run under one key, retried until answered (5% with a concurrent twin under the key). */
  private async startRun(): Promise<string> {
    const input: RunInput = { kind: 'start', key: `start-${this.random.tag()}${this.random.tag()}` };
    const body = {
      objective: 'What does a linearizable run register look like?',
      budget: { max_steps: this.options.maxSteps },
    };
    const attempt = () =>
      this.recorder.record(
        (output) => output.runId,
        -1,
        input,
        async () =>
          toOutcome(
            await this.send({
              method: 'POST',
              path: RUNS,
              token: this.target.token,
              idempotencyKey: input.key,
              body,
              timeoutMs: this.options.timeoutMs,
            }),
          ),
      );
    for (let tries = 0; tries < 40; tries++) {
      const twin = this.random.chance(0.05) ? attempt() : undefined;
      const outcomes = [await attempt(), ...(twin === undefined ? [] : [await twin])];
      const runId = outcomes.flatMap((o) =>
        o.kind === 'answer' && o.output.status === 201 ? [o.output.runId] : [],
      )[0];
      if (runId !== undefined) {
        this.runsStarted++;
        return runId;
      }
      await sleep(250);
    }
    throw new Error('could not start a run in 40 attempts');
  }
}

/** Always after no answer or a 5xx (the same key makes it safe); sometimes after an answer. */
const shouldRetry = (outcome: Outcome<RunAnswer>, random: Random): boolean =>
  outcome.kind !== 'answer' || random.chance(0.12);

const hasEnded = (outcome: Outcome<RunAnswer>): boolean =>
  outcome.kind === 'answer' &&
  (TERMINAL.has(outcome.output.lifecycle ?? '') || ENDED_CODES.has(outcome.output.code ?? ''));

/** A run view or an error body, reduced to the fields the run register speaks of. */
export const toOutcome = (answer: HttpAnswer): Outcome<RunAnswer> => {
  if (answer.kind === 'not_sent') return answer;
  if (answer.kind === 'lost') return { kind: 'unknown', answered: false, reason: answer.reason };
  if (answer.status >= 500) return { kind: 'unknown', answered: true, reason: `HTTP ${answer.status}` };
  const body = (answer.body ?? {}) as Record<string, unknown>;
  const replayed = answer.headers.get('idempotency-replayed') === 'true';
  const output: RunAnswer =
    body.schema === 'helix.agent_run.v1'
      ? {
          status: answer.status,
          replayed,
          version: body.version as number,
          lifecycle: body.lifecycle_status as string,
          completion: body.completion_status as string,
          runId: body.run_id as string,
          pending: pendingIds(body.pending_questions),
        }
      : {
          status: answer.status,
          replayed,
          ...(typeof body.code === 'string' ? { code: body.code } : {}),
          ...(typeof body.current_version === 'number' ? { currentVersion: body.current_version } : {}),
        };
  return { kind: 'answer', output };
};

const pendingIds = (questions: unknown): string[] =>
  Array.isArray(questions) ? questions.map((q) => String((q as { question_id?: unknown }).question_id)).sort() : [];

/** What a client last learned of a run: the newest version it saw, and the questions pending then. */
interface Seen {
  readonly version: number;
  readonly pending: readonly string[];
}

const learn = (known: Seen, answer: RunAnswer): Seen => {
  const version = answer.version ?? answer.currentVersion;
  if (version === undefined || version < known.version) return known;
  return { version, pending: answer.pending ?? (version === known.version ? known.pending : []) };
};
