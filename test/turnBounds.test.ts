import { afterEach, describe, expect, it } from 'vitest';
import { emptyOutcome, type TurnOutcome } from '../src/domain/turn.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { api, gate, idemKey, startTestHelix, waitFor, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const OFF = { HELIX_AGENT_IP_RATE_LIMIT: '0', HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0' };

const running: TestHelix[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.close()));
});

const boot = async (step: (input: { runId: string }) => Promise<TurnOutcome>, env: Record<string, string> = {}) => {
  const h = await startTestHelix(storeFlavours()[0]!, {
    executor: new ScriptedExecutor([], step),
    env: { ...OFF, ...env },
  });
  running.push(h);
  return h;
};
/** Every turn waits for the gate: the first turns hold their slots until the test releases them. */
const bootGated = async (env: Record<string, string>) => {
  const g = gate();
  const h = await boot(async () => {
    await g.opened;
    return emptyOutcome();
  }, env);
  return { h, release: g.release };
};
const start = async (h: TestHelix, token: string) =>
  (
    await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'bounded', budget: { max_steps: 4 } },
    })
  ).body as { run_id: string };
const cont = (h: TestHelix, token: string, runId: string, version = 1) =>
  api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
    token,
    idempotencyKey: idemKey(),
    body: { expected_version: version, instruction: 'go' },
  });
const inspect = async (h: TestHelix, token: string, runId: string) =>
  (await api(h.url, 'GET', `${RUNS}/${runId}`, { token })).body;

// Issue 11, item 10: `failed`, `pending`, `queued` and `run.failed` now occur.
describe('status axes', () => {
  it('a failure no retry can fix fails the run: failed/failed, run.failed, stop; a transient one blocks it', async () => {
    const outcomes = [
      emptyOutcome({ status: 'failed', failureCode: 'model_rate_limited' }),
      emptyOutcome({ status: 'failed', failureCode: 'model_auth' }),
    ];
    const h = await boot(async () => outcomes.shift()!);
    const token = await h.key();
    const run = await start(h, token);
    const blocked = await cont(h, token, run.run_id);
    expect(blocked.body).toMatchObject({
      lifecycle_status: 'waiting',
      completion_status: 'blocked',
      recommended_next_action: 'continue',
    });
    const failed = await cont(h, token, run.run_id, 3);
    expect(failed.body).toMatchObject({
      lifecycle_status: 'failed',
      completion_status: 'failed',
      recommended_next_action: 'stop',
      latest_result: { outcome: 'failed', failure_code: 'model_auth' },
    });
    expect(failed.body.completed_at).not.toBeNull();
    const events = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/events`, { token })).body.events as {
      kind: string;
      data: Record<string, unknown>;
    }[];
    expect(events.at(-1)).toMatchObject({ kind: 'run.failed', data: { turn: 2, failure_code: 'model_auth' } });
    // A failed run takes no more steps.
    expect((await cont(h, token, run.run_id, 5)).body.code).toBe('run_not_active');
  });

  it('while a turn runs the run is running/pending and the client is told to wait', async () => {
    const { h, release } = await bootGated({});
    const token = await h.key();
    const run = await start(h, token);
    const turn = cont(h, token, run.run_id);
    await waitFor(async () => (await inspect(h, token, run.run_id)).lifecycle_status === 'running');
    expect(await inspect(h, token, run.run_id)).toMatchObject({
      completion_status: 'pending',
      recommended_next_action: 'wait_for_turn',
    });
    release();
    expect((await turn).body).toMatchObject({ lifecycle_status: 'waiting', completion_status: 'needs_more_evidence' });
  });
});

describe('concurrent turn bounds', () => {
  it('a turn over the process bound waits as queued/pending and runs when a slot frees', async () => {
    const first = gate();
    const seen: string[] = [];
    const h = await boot(
      async (input) => {
        seen.push(input.runId);
        if (seen.length === 1) await first.opened;
        return emptyOutcome();
      },
      { HELIX_MAX_CONCURRENT_TURNS: '1' },
    );
    const token = await h.key();
    const [a, b] = [await start(h, token), await start(h, token)];
    const turnA = cont(h, token, a.run_id);
    await waitFor(async () => (await inspect(h, token, a.run_id)).lifecycle_status === 'running');
    const turnB = cont(h, token, b.run_id);
    await waitFor(async () => (await inspect(h, token, b.run_id)).lifecycle_status === 'queued');
    expect(await inspect(h, token, b.run_id)).toMatchObject({
      completion_status: 'pending',
      recommended_next_action: 'wait_for_turn',
      version: 2,
    });
    expect(seen).toEqual([a.run_id]);
    first.release();
    expect((await turnA).status).toBe(200);
    const doneB = await turnB;
    expect(doneB.status).toBe(200);
    // queued (2) -> running (3) -> finalized (4)
    expect(doneB.body).toMatchObject({ lifecycle_status: 'waiting', version: 4 });
    expect(seen).toEqual([a.run_id, b.run_id]);
  });

  it('with the slots and the queue full, a continue is refused with 429 too_many_turns and claims nothing', async () => {
    const { h, release } = await bootGated({ HELIX_MAX_CONCURRENT_TURNS: '1', HELIX_MAX_QUEUED_TURNS: '0' });
    const token = await h.key();
    const [a, b] = [await start(h, token), await start(h, token)];
    const turnA = cont(h, token, a.run_id);
    await waitFor(async () => (await inspect(h, token, a.run_id)).lifecycle_status === 'running');
    const refused = await cont(h, token, b.run_id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({ code: 'too_many_turns', adr_code: -32003 });
    expect(await inspect(h, token, b.run_id)).toMatchObject({
      version: 1,
      lifecycle_status: 'waiting',
      budget: { steps_used: 0 },
    });
    release();
    await turnA;
    expect((await cont(h, token, b.run_id)).status).toBe(200);
  });

  it("one owner's bound leaves room for others", async () => {
    const { h, release } = await bootGated({ HELIX_MAX_CONCURRENT_TURNS_PER_OWNER: '1' });
    const busy = await h.key(undefined, 'tenant-a', 'busy');
    const other = await h.key(undefined, 'tenant-a', 'other');
    const [a, b, c] = [await start(h, busy), await start(h, busy), await start(h, other)];
    const turnA = cont(h, busy, a.run_id);
    await waitFor(async () => (await inspect(h, busy, a.run_id)).lifecycle_status === 'running');
    expect((await cont(h, busy, b.run_id)).body.code).toBe('too_many_turns');
    const turnC = cont(h, other, c.run_id);
    await waitFor(async () => (await inspect(h, other, c.run_id)).lifecycle_status === 'running');
    release();
    expect((await turnA).status).toBe(200);
    expect((await turnC).status).toBe(200);
  });

  it('a queued turn is cancelled cleanly, and one that waits past the turn deadline is blocked with turn_timeout', async () => {
    const { h, release } = await bootGated({ HELIX_MAX_CONCURRENT_TURNS: '1', HELIX_AGENT_TURN_TIMEOUT_MS: '1500' });
    const token = await h.key();
    const [a, b, c] = [await start(h, token), await start(h, token), await start(h, token)];
    const turnA = cont(h, token, a.run_id);
    await waitFor(async () => (await inspect(h, token, a.run_id)).lifecycle_status === 'running');
    const turnB = cont(h, token, b.run_id);
    await waitFor(async () => (await inspect(h, token, b.run_id)).lifecycle_status === 'queued');
    const cancelled = await api(h.url, 'POST', `${RUNS}/${b.run_id}/cancel`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 2 },
    });
    expect(cancelled.body).toMatchObject({ lifecycle_status: 'cancelled' });
    expect((await turnB).body.code).toBe('run_cancelled');

    const turnC = await cont(h, token, c.run_id);
    expect(turnC.body).toMatchObject({
      lifecycle_status: 'waiting',
      completion_status: 'blocked',
      latest_result: { outcome: 'timed_out', failure_code: 'turn_timeout' },
    });
    release();
    await turnA;
  });
});
