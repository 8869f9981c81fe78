import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { api, idemKey } from './support/harness.js';
import { startServerProcess, type ServerProcess } from './support/processes.js';
import { serverStoreFlavours, type TestStore } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const RUNS = '/api/v1/agent-runs';
/** Acknowledged turns before the kill: enough that the four clients overlap, with requests in flight. */
const LOADED_AFTER_TURNS = 12;

/** One client operation as the client saw it: what it sent, and what (if anything) it was told. */
interface Operation {
  readonly kind: 'start' | 'continue';
  readonly key: string;
  readonly body: Record<string, unknown>;
  readonly runId?: string;
  acknowledged?: { status: number; body: any };
  failed?: boolean;
}

describe.each(serverStoreFlavours())(
  'kill -9 under load, checked against the recorded history, on $name',
  (flavour) => {
    let servers: ServerProcess[] = [];
    let testStore: TestStore | undefined;
    afterEach(async () => {
      for (const s of servers) await s.kill();
      servers = [];
      await testStore?.dispose();
    });

    it('every acknowledged mutation survives, nothing is duplicated, seqs stay contiguous, and a same-key retry finishes once', {
      timeout: ceilingFor(2, 90_000),
    }, async () => {
      testStore = await flavour.create();
      const location = testStore.location!;
      const { key: token } = await createApiKey(
        testStore.store,
        { tenantId: 't', accountId: 'a', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
        Date.now(),
      );
      const env = { HELIX_TEST_TURN_MS: '40', HELIX_AGENT_IP_RATE_LIMIT: '0', HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0' };
      const first = await startServerProcess(location, env);
      servers.push(first);

      const history: Operation[] = [];
      let stop = false;
      // The kill comes once the load is real (a few turns acknowledged), however slow the machine.
      let acknowledgedTurns = 0;
      let loaded: () => void = () => undefined;
      const underLoad = new Promise<void>((resolve) => (loaded = resolve));
      const record = async (server: ServerProcess, op: Operation, path: string) => {
        history.push(op);
        try {
          const res = await api(server.url, 'POST', path, { token, idempotencyKey: op.key, body: op.body });
          op.acknowledged = { status: res.status, body: res.body };
          if (op.kind === 'continue' && res.status === 200 && ++acknowledgedTurns >= LOADED_AFTER_TURNS) loaded();
        } catch {
          op.failed = true; // the connection died with the server: outcome unknown to the client
        }
      };
      // Four clients, each starting runs and driving them turn by turn, until the server dies.
      const client = async (n: number) => {
        for (let i = 0; !stop && i < 1000; i++) {
          const start: Operation = {
            kind: 'start',
            key: idemKey(`s${n}-${i}`),
            body: { objective: `history ${n}-${i}`, budget: { max_steps: 64 } },
          };
          await record(first, start, RUNS);
          if (start.acknowledged?.status !== 201) return;
          let version = start.acknowledged.body.version as number;
          const runId = start.acknowledged.body.run_id as string;
          for (let turn = 0; !stop && turn < 3; turn++) {
            const op: Operation = {
              kind: 'continue',
              key: idemKey(`c${n}-${i}-${turn}`),
              body: { expected_version: version, instruction: 'go' },
              runId,
            };
            await record(first, op, `${RUNS}/${runId}/continue`);
            if (op.acknowledged?.status !== 200) return;
            version = op.acknowledged.body.version;
          }
        }
      };
      const clients = [0, 1, 2, 3].map(client);
      // If every client stops first (an error answer), the checks below say why.
      await Promise.race([underLoad, Promise.all(clients)]);
      await first.kill('SIGKILL');
      stop = true;
      await Promise.all(clients);

      const second = await startServerProcess(location, env);
      servers.push(second);
      const acknowledged = history.filter((op) => op.acknowledged !== undefined && op.acknowledged.status < 300);
      expect(acknowledged.filter((op) => op.kind === 'continue').length).toBeGreaterThan(0);
      expect(history.some((op) => op.failed)).toBe(true); // the kill really interrupted requests

      // Every acknowledged mutation is present: its run exists at (at least) the acknowledged version.
      for (const op of acknowledged) {
        const runId = (op.runId ?? op.acknowledged!.body.run_id) as string;
        const now = await api(second.url, 'GET', `${RUNS}/${runId}`, { token });
        expect(now.status).toBe(200);
        expect(now.body.version).toBeGreaterThanOrEqual(op.acknowledged!.body.version);
      }
      // Same-key retries of acknowledged mutations replay the original answer, exactly.
      for (const op of acknowledged) {
        const path = op.kind === 'start' ? RUNS : `${RUNS}/${op.runId}/continue`;
        const retry = await api(second.url, 'POST', path, { token, idempotencyKey: op.key, body: op.body });
        expect(retry.headers.get('idempotency-replayed'), op.key).toBe('true');
        expect(retry.body).toEqual(op.acknowledged!.body);
      }
      // Interrupted mutations: a retry with the same key finishes exactly once, or reports outcome_unknown.
      for (const op of history.filter((o) => o.failed)) {
        const path = op.kind === 'start' ? RUNS : `${RUNS}/${op.runId}/continue`;
        const retry = await api(second.url, 'POST', path, { token, idempotencyKey: op.key, body: op.body });
        if (op.kind === 'start') {
          expect(retry.status).toBe(201);
          const again = await api(second.url, 'POST', path, { token, idempotencyKey: op.key, body: op.body });
          expect(again.body.run_id).toBe(retry.body.run_id);
        } else {
          expect([200, 409]).toContain(retry.status);
          if (retry.status === 409)
            expect(['outcome_unknown', 'version_conflict', 'run_busy']).toContain(retry.body.code);
        }
      }
      // Nothing duplicated: one run per start key (its objective is unique), contiguous seqs per run.
      const starts = history.filter((op) => op.kind === 'start');
      const runIds = new Set<string>();
      for (const op of starts) {
        const replay = await api(second.url, 'POST', RUNS, { token, idempotencyKey: op.key, body: op.body });
        expect(replay.headers.get('idempotency-replayed')).toBe('true');
        runIds.add(replay.body.run_id);
      }
      expect(runIds.size).toBe(starts.length);
      for (const runId of runIds) {
        const events = (await api(second.url, 'GET', `${RUNS}/${runId}/events?limit=200`, { token })).body.events as {
          seq: number;
          kind: string;
        }[];
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(events.filter((e) => e.kind === 'run.started')).toHaveLength(1);
        const run = (await api(second.url, 'GET', `${RUNS}/${runId}`, { token })).body;
        expect(run.lifecycle_status).not.toBe('running');
      }
    });
  },
);
