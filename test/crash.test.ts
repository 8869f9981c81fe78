import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { api, idemKey, waitFor } from './support/harness.js';
import { startServerProcess, type ServerProcess } from './support/processes.js';
import { serverStoreFlavours, type TestStore } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const RUNS = '/api/v1/agent-runs';

describe.each(serverStoreFlavours())('kill -9 during a turn on $name', (flavour) => {
  let servers: ServerProcess[] = [];
  let testStore: TestStore | undefined;
  afterEach(async () => {
    for (const server of servers) await server.kill();
    servers = [];
    await testStore?.dispose();
  });

  it('restarts, recovers the run with contiguous events, and the same key reports outcome_unknown', {
    timeout: ceilingFor(2),
  }, async () => {
    testStore = await flavour.create();
    const location = testStore.location!;
    const { key: token } = await createApiKey(
      testStore.store,
      { tenantId: 't', accountId: 'a', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
      Date.now(),
    );

    const first = await startServerProcess(location, { HELIX_TEST_TURN_MS: '60000' });
    servers.push(first);
    const started = await api(first.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'Survive a crash' },
    });
    expect(started.status).toBe(201);
    const runId = started.body.run_id as string;
    const key = idemKey('crash');
    const body = { expected_version: 1, instruction: 'a turn that will be killed' };
    const inFlight = api(first.url, 'POST', `${RUNS}/${runId}/continue`, { token, idempotencyKey: key, body }).catch(
      (err: unknown) => err,
    );
    await waitFor(
      async () => (await api(first.url, 'GET', `${RUNS}/${runId}`, { token })).body.lifecycle_status === 'running',
    );
    await first.kill('SIGKILL');
    expect(await inFlight).toBeInstanceOf(Error);

    const second = await startServerProcess(location, { HELIX_TEST_TURN_MS: '10' });
    servers.push(second);
    const recovered = await api(second.url, 'GET', `${RUNS}/${runId}`, { token });
    expect(recovered.body).toMatchObject({
      lifecycle_status: 'waiting',
      completion_status: 'blocked',
      version: 3,
      budget: { steps_used: 1 },
    });
    const events = (await api(second.url, 'GET', `${RUNS}/${runId}/events`, { token })).body.events as {
      seq: number;
      kind: string;
    }[];
    expect(events.map((e) => e.kind)).toEqual([
      'run.started',
      'run.continuation_received',
      'run.recovered',
      'run.blocked',
    ]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);

    const retry = await api(second.url, 'POST', `${RUNS}/${runId}/continue`, { token, idempotencyKey: key, body });
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ code: 'outcome_unknown', run_id: runId });
    const next = await api(second.url, 'POST', `${RUNS}/${runId}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 3, instruction: 'carry on' },
    });
    expect(next.status, next.text).toBe(200);
    expect(next.body.version).toBe(5);
    const after = (await api(second.url, 'GET', `${RUNS}/${runId}/events`, { token })).body.events as { seq: number }[];
    expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => i + 1));
  });
});
