import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { api, idemKey, waitFor } from './support/harness.js';
import { startServerProcess, type ServerProcess } from './support/processes.js';
import { storeFlavours, type TestStore } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const RUNS = '/api/v1/agent-runs';
const postgres = storeFlavours().find((f) => f.name === 'postgres');

/** Ends every connection to the test database except the caller's, as a restart or an admin would. */
const terminateBackends = async (databaseUrl: string): Promise<number> => {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const result = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
};

/** Whether a connection opened after `since` has run LISTEN (pg_stat_activity keeps its last query). */
const listeningSince = async (databaseUrl: string, since: Date): Promise<boolean> => {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const result = await admin.query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %' AND backend_start > $1",
      [since],
    );
    return (result.rowCount ?? 0) > 0;
  } finally {
    await admin.end();
  }
};

// Issue 11, item 1: an idle pooled connection ended by the server killed the process
// ("Unhandled 'error' event"). It needs a real server: PGlite has no backends to terminate.
describe.skipIf(postgres === undefined)('PostgreSQL connections ended under a running server', () => {
  let store: TestStore;
  let server: ServerProcess;
  let token: string;
  beforeAll(async () => {
    store = await postgres!.create();
    token = (
      await createApiKey(
        store.store,
        { tenantId: 't', accountId: 'a', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
        Date.now(),
      )
    ).key;
    server = await startServerProcess(store.location!, {
      HELIX_AGENT_IP_RATE_LIMIT: '0',
      HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
    });
  }, ceilingFor(1));
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await store?.dispose();
  });

  it('survives pg_terminate_backend on its idle connections and keeps serving (runs, events, cancel signals)', async () => {
    // Several concurrent requests leave several idle connections in the pool, plus the LISTEN one.
    const started = await Promise.all(
      Array.from({ length: 4 }, () =>
        api(server.url, 'POST', RUNS, { token, idempotencyKey: idemKey(), body: { objective: 'before' } }),
      ),
    );
    expect(started.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const terminatedAt = new Date();
    expect(await terminateBackends(store.location!)).toBeGreaterThanOrEqual(2);
    // Give the process the moment it needs to receive the connections' errors.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();

    const after = await api(server.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'after' },
    });
    expect(after.status).toBe(201);
    const inspected = await api(server.url, 'GET', `${RUNS}/${String(started[0]!.body.run_id)}`, { token });
    expect(inspected.status).toBe(200);
    expect(server.stderr()).not.toContain("Unhandled 'error' event");
    expect(server.stderr()).toContain('database connection lost');

    // The LISTEN connection comes back too: a long poll is woken by the cancel's signal, long
    // before its own 25-second wait would end it.
    const runId = String(after.body.run_id);
    // The notifier reconnects with a backoff; wait for its LISTEN, not for a guess at how long that takes.
    await waitFor(() => listeningSince(store.location!, terminatedAt));
    const poll = api(server.url, 'GET', `${RUNS}/${runId}/events?after_seq=1&wait_ms=25000`, { token });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancel = await api(server.url, 'POST', `${RUNS}/${runId}/cancel`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 1 },
    });
    expect(cancel.status).toBe(200);
    const woken = await Promise.race([
      poll,
      new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 10_000)),
    ]);
    expect(woken).not.toBe('still waiting');
    const events = woken as Awaited<typeof poll>;
    expect(events.status).toBe(200);
    expect((events.body.events as { kind: string }[]).map((e) => e.kind)).toContain('run.cancelled');
  });
});
