import { exchange, type HttpAnswer } from './http.js';
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
  const { random } = options;
  const recorder = new Recorder<RunInput, RunAnswer>();
  const deadline = Date.now() + options.durationMs;
  let runsStarted = 0;
  const send = (request: Parameters<typeof exchange>[1]): Promise<HttpAnswer> => {
    const urls = target.urls();
    if (urls.length === 0) return Promise.resolve({ kind: 'not_sent' });
    return exchange(random.pick(urls), request);
  };
  const startRun = async (): Promise<string> => {
    const key = `start-${random.tag()}${random.tag()}`;
    for (let attempt = 0; attempt < 40; attempt++) {
      const answer = await send({
        method: 'POST',
        path: RUNS,
        token: target.token,
        idempotencyKey: key,
        body: {
          objective: 'What does a linearizable run register look like?',
          budget: { max_steps: options.maxSteps },
        },
        timeoutMs: options.timeoutMs,
      });
      const runId = answer.kind === 'response' ? (answer.body as { run_id?: unknown }).run_id : undefined;
      if (answer.kind === 'response' && answer.status === 201 && typeof runId === 'string') {
        runsStarted++;
        return runId;
      }
      await sleep(250);
    }
    throw new Error('could not start a run in 40 attempts');
  };
  const slots = await Promise.all(Array.from({ length: options.runs }, async () => ({ run: await startRun() })));
  const replacing = new Set<number>();

  const call = (client: number, run: string, input: RunInput): Promise<Outcome<RunAnswer>> =>
    recorder.record(run, client, input, async () =>
      toOutcome(
        await send({
          method: input.kind === 'inspect' ? 'GET' : 'POST',
          path: input.kind === 'inspect' ? `${RUNS}/${run}` : `${RUNS}/${run}/${input.kind}`,
          token: target.token,
          ...(input.kind === 'inspect' ? {} : { idempotencyKey: input.key, body: JSON.parse(input.body) }),
          timeoutMs: options.timeoutMs,
        }),
      ),
    );

  const client = async (id: number): Promise<void> => {
    const seen = new Map<string, number>();
    for (let i = 0; Date.now() < deadline; i++) {
      const slot = random.below(slots.length);
      const run = slots[slot]!.run;
      const last = seen.get(run) ?? 1;
      const p = random.next();
      const kind = p < 0.35 ? 'inspect' : p < 0.9 ? 'continue' : 'cancel';
      const outcomes: Outcome<RunAnswer>[] = [];
      if (kind === 'inspect') outcomes.push(await call(id, run, { kind }));
      else {
        const q = random.next();
        const expectedVersion = q < 0.65 ? last : q < 0.85 ? last + 1 : Math.max(1, last + random.below(5) - 2);
        const body =
          kind === 'continue'
            ? { expected_version: expectedVersion, instruction: 'go on' }
            : { expected_version: expectedVersion, reason: 'probe' };
        const input: RunInput = {
          kind,
          key: `${kind}-${id}-${i}-${random.tag()}`,
          expectedVersion,
          body: JSON.stringify(body),
        };
        const twin = random.chance(0.05) ? sleep(random.below(20)).then(() => call(id, run, input)) : undefined;
        let outcome = await call(id, run, input);
        outcomes.push(outcome);
        if (twin !== undefined) outcomes.push(await twin);
        for (let retry = 0; retry < 8 && Date.now() < deadline && shouldRetry(outcome, random); retry++) {
          await sleep(outcome.kind === 'answer' ? random.below(50) : 300 + random.below(300));
          outcome = await call(id, run, input);
          outcomes.push(outcome);
        }
        if (random.chance(0.02)) {
          const other = { ...body, expected_version: expectedVersion + 1 };
          outcomes.push(
            await call(id, run, { ...input, expectedVersion: expectedVersion + 1, body: JSON.stringify(other) }),
          );
        }
      }
      for (const o of outcomes) {
        if (o.kind !== 'answer') continue;
        const version = o.output.version ?? o.output.currentVersion;
        if (version !== undefined) seen.set(run, Math.max(seen.get(run) ?? 1, version));
      }
      if (outcomes.some(hasEnded) && slots[slot]!.run === run && !replacing.has(slot)) {
        replacing.add(slot);
        try {
          slots[slot] = { run: await startRun() };
        } finally {
          replacing.delete(slot);
        }
      }
      if (outcomes.some((o) => o.kind === 'not_sent')) await sleep(100);
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, id) => client(id)));
  return { history: recorder.history(), runsStarted };
};

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
