import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyOutcome } from '../src/domain/turn.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { api, idemKey, startTestHelix, waitFor, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';

/** An executor whose turns wait until released, so a request can be observed mid-flight. */
const gatedExecutor = () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const executor = new ScriptedExecutor([], async () => {
    await gate;
    return emptyOutcome();
  });
  return { executor, release: () => release() };
};

describe.each(storeFlavours())('idempotency on $name', (flavour) => {
  let h: TestHelix;
  let token: string;
  let gated: ReturnType<typeof gatedExecutor>;
  beforeAll(async () => {
    gated = gatedExecutor();
    h = await startTestHelix(flavour, { executor: gated.executor });
    token = await h.key();
  });
  afterAll(async () => {
    gated.release();
    await h.close();
  });

  it('an exact replay returns the stored status and body with Idempotency-Replayed: true, once', async () => {
    const key = idemKey('replay');
    const first = await api(h.url, 'POST', RUNS, { token, idempotencyKey: key, body: { objective: 'Replay me' } });
    // Key order and explicit defaults do not make it a different request.
    const again = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: key,
      body: { budget: { max_steps: 12 }, objective: 'Replay me' },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    const events = await api(h.url, 'GET', `${RUNS}/${first.body.run_id}/events`, { token });
    expect(events.body.events.filter((e: { kind: string }) => e.kind === 'run.started')).toHaveLength(1);
  });

  it('a different request under the same key is idempotency_conflict (422)', async () => {
    const key = idemKey('conflict');
    await api(h.url, 'POST', RUNS, { token, idempotencyKey: key, body: { objective: 'One' } });
    const res = await api(h.url, 'POST', RUNS, { token, idempotencyKey: key, body: { objective: 'Two' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_conflict');
  });

  it('keys are scoped by owner: another tenant reusing the key is processed independently', async () => {
    const other = await h.key(undefined, 'tenant-b', 'account-b');
    const key = idemKey('shared');
    const a = await api(h.url, 'POST', RUNS, { token, idempotencyKey: key, body: { objective: 'A' } });
    const b = await api(h.url, 'POST', RUNS, { token: other, idempotencyKey: key, body: { objective: 'B' } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotency-replayed')).toBe('false');
    expect(b.body.run_id).not.toBe(a.body.run_id);
  });

  it('keys are scoped by operation: the same key may start a run and cancel it', async () => {
    const key = idemKey('per-op');
    const started = await api(h.url, 'POST', RUNS, { token, idempotencyKey: key, body: { objective: 'Ops' } });
    const cancelled = await api(h.url, 'POST', `${RUNS}/${started.body.run_id}/cancel`, {
      token,
      idempotencyKey: key,
      body: { expected_version: 1 },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.lifecycle_status).toBe('cancelled');
  });

  it('a request refused by validation is not stored: the corrected request under the same key is processed', async () => {
    const key = idemKey('fixme');
    const bad = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: key,
      body: { objective: 'x', budget: { max_steps: 99 } },
    });
    expect(bad.status).toBe(400);
    const good = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: key,
      body: { objective: 'x', budget: { max_steps: 9 } },
    });
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotency-replayed')).toBe('false');
  });

  it('a state refusal (stale version) is not stored either', async () => {
    const started = await api(h.url, 'POST', RUNS, { token, idempotencyKey: idemKey(), body: { objective: 'Stale' } });
    const key = idemKey('stale');
    const stale = await api(h.url, 'POST', `${RUNS}/${started.body.run_id}/cancel`, {
      token,
      idempotencyKey: key,
      body: { expected_version: 5 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_conflict', current_version: 1 });
    const fixed = await api(h.url, 'POST', `${RUNS}/${started.body.run_id}/cancel`, {
      token,
      idempotencyKey: idemKey('stale2'),
      body: { expected_version: 1 },
    });
    expect(fixed.status).toBe(200);
  });

  it('the same key while the first continue is still running is idempotency_in_progress (409), then replays', async () => {
    const started = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'In progress' },
    });
    const runId = started.body.run_id;
    const key = idemKey('busy');
    const body = { expected_version: 1, instruction: 'slow turn' };
    const first = api(h.url, 'POST', `${RUNS}/${runId}/continue`, { token, idempotencyKey: key, body });
    await waitFor(
      async () => (await api(h.url, 'GET', `${RUNS}/${runId}`, { token })).body.lifecycle_status === 'running',
    );
    const second = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, { token, idempotencyKey: key, body });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'idempotency_in_progress', run_id: runId });
    const otherKey = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 2, instruction: 'x' },
    });
    expect(otherKey.status).toBe(409);
    expect(otherKey.body).toMatchObject({ code: 'run_busy', current_version: 2 });
    gated.release();
    const done = await first;
    expect(done.status).toBe(200);
    const replay = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, { token, idempotencyKey: key, body });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body).toEqual(done.body);
  });
});
