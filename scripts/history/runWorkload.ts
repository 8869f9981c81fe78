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
    const seen = new Map<string, number>();
    for (let i = 0; Date.now() < deadline; i++) {
      const slot = this.random.below(this.slots.length);
      const run = this.slots[slot] ?? '';
      const p = this.random.next();
      const outcomes =
        p < 0.35
          ? [await this.call(id, run, { kind: 'inspect' })]
          : await this.mutate(id, run, p < 0.9 ? 'continue' : 'cancel', `${id}-${i}`, seen.get(run) ?? 1, deadline);
      for (const o of outcomes) {
        if (o.kind !== 'answer') continue;
        const version = o.output.version ?? o.output.currentVersion;
        if (version !== undefined) seen.set(run, Math.max(seen.get(run) ?? 1, version));
      }
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
    last: number,
    deadline: number,
  ): Promise<Outcome<RunAnswer>[]> {
    const { random } = this;
    const q = random.next();
    const expectedVersion = q < 0.65 ? last : q < 0.85 ? last + 1 : Math.max(1, last + random.below(5) - 2);
    const bodyAt = (version: number) =>
      JSON.stringify(
        kind === 'continue'
          ? { expected_version: version, instruction: 'go on' }
          : { expected_version: version, reason: 'probe' },
      );
    const input: RunInput = {
      kind,
      key: `${kind}-${tag}-${random.tag()}`,
      expectedVersion,
      body: bodyAt(expectedVersion),
    };
    const twin = random.chance(0.05) ? sleep(random.below(20)).then(() => this.call(client, run, input)) : undefined;
    let outcome = await this.call(client, run, input);
    const outcomes = [outcome];
    if (twin !== undefined) outcomes.push(await twin);
    for (let retry = 0; retry < 8 && Date.now() < deadline && shouldRetry(outcome, random); retry++) {
      await sleep(outcome.kind === 'answer' ? random.below(50) : 300 + random.below(300));
      outcome = await this.call(client, run, input);
      outcomes.push(outcome);
    }
    if (random.chance(0.02))
      outcomes.push(
        await this.call(client, run, {
          ...input,
          expectedVersion: expectedVersion + 1,
          body: bodyAt(expectedVersion + 1),
        }),
      );
    return outcomes;
  }

  private call(client: number, run: string, input: RunInput): Promise<Outcome<RunAnswer>> {
    return this.recorder.record(run, client, input, async () =>
      toOutcome(
        await this.send({
          method: input.kind === 'inspect' ? 'GET' : 'POST',
          path: input.kind === 'inspect' ? `${RUNS}/${run}` : `${RUNS}/${run}/${input.kind}`,
          token: this.target.token,
          ...(input.kind === 'inspect' ? {} : { idempotencyKey: input.key, body: JSON.parse(input.body) }),
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

  private async startRun(): Promise<string> {
    const key = `start-${this.random.tag()}${this.random.tag()}`;
    const body = {
      objective: 'What does a linearizable run register look like?',
      budget: { max_steps: this.options.maxSteps },
    };
    for (let attempt = 0; attempt < 40; attempt++) {
      const answer = await this.send({
        method: 'POST',
        path: RUNS,
        token: this.target.token,
        idempotencyKey: key,
        body,
        timeoutMs: this.options.timeoutMs,
      });
      const runId = answer.kind === 'response' ? (answer.body as { run_id?: unknown }).run_id : undefined;
      if (answer.kind === 'response' && answer.status === 201 && typeof runId === 'string') {
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
        }
      : {
          status: answer.status,
          replayed,
          ...(typeof body.code === 'string' ? { code: body.code } : {}),
          ...(typeof body.current_version === 'number' ? { currentVersion: body.current_version } : {}),
        };
  return { kind: 'answer', output };
};
