// Issue 36 item 3: a request that loses the run's compare-and-set to a concurrent one refuses with
// the state the winner left. On real PostgreSQL (READ COMMITTED) the loser's UPDATE waits for the
// winner and then matches no row; before the fix the refusal carried the version the loser had
// read (a stale `current_version`, and `version_conflict` where the run was already cancelled).
// SQLite serializes writers and never loses that way, so the rival is injected deterministically:
// a store whose next compare-and-set first writes a rival's transition in the same transaction
// (rolled back with the refusal, so each case only reads the refusal).
import { afterEach, describe, expect, it } from 'vitest';
import { HelixRestClient } from '../src/client/restClient.js';
import type { RunRecord } from '../src/domain/run.js';
import { emptyOutcome } from '../src/domain/turn.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import type { Store, UnitOfWork } from '../src/store/port.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours, type StoreFlavour } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
type Rival = (run: RunRecord) => RunRecord;

/** A store whose next compare-and-set loses to `rival`, written just before it in the same transaction. */
const losingStore = (inner: Store, armed: { rival: Rival | undefined }): Store => {
  const withRival = (uow: UnitOfWork): UnitOfWork => ({
    ...uow,
    runs: {
      ...uow.runs,
      async compareAndSet(next, expectedVersion) {
        const rival = armed.rival;
        armed.rival = undefined;
        const current = rival === undefined ? undefined : await uow.runs.get(next.runId);
        if (rival !== undefined && current !== undefined)
          expect(await uow.runs.compareAndSet(rival(current), current.version)).toBe(true);
        return uow.runs.compareAndSet(next, expectedVersion);
      },
    },
  });
  return Object.assign(Object.create(inner) as Store, {
    transaction: <T>(fn: (uow: UnitOfWork) => Promise<T>) => inner.transaction((uow) => fn(withRival(uow))),
  });
};

const losing = (flavour: StoreFlavour, armed: { rival: Rival | undefined }): StoreFlavour => ({
  name: flavour.name,
  async create() {
    const created = await flavour.create();
    return { ...created, store: losingStore(created.store, armed) };
  },
});

const cancelledBy = (run: RunRecord): RunRecord => ({
  ...run,
  version: run.version + 1,
  lifecycle: 'cancelled',
  completion: 'cancelled',
  activeTurn: null,
});
const claimedBy = (run: RunRecord): RunRecord => ({
  ...run,
  version: run.version + 1,
  lifecycle: 'running',
  completion: 'pending',
  stepsUsed: run.stepsUsed + 1,
  activeTurn: { turnId: 'turn_rival', workerId: 'rival', leaseExpiresAt: Date.now() + 60_000, startedAt: Date.now() },
});

describe.each(storeFlavours())('a lost compare-and-set refuses with the winner state on $name', (flavour) => {
  let h: TestHelix | undefined;
  const armed: { rival: Rival | undefined } = { rival: undefined };
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  const boot = async () => {
    h = await startTestHelix(losing(flavour, armed), { executor: new ScriptedExecutor([], emptyOutcome()) });
    const token = await h.key();
    const run = await new HelixRestClient(h.url, token).start({ objective: 'How does the mechanism work?' });
    return { url: h.url, token, runId: run.run_id };
  };
  const post = (url: string, token: string, path: string, body: unknown) =>
    api(url, 'POST', path, { token, idempotencyKey: idemKey(), body });

  it('a cancel that loses to a cancel is run_not_active at the new version', async () => {
    const { url, token, runId } = await boot();
    armed.rival = cancelledBy;
    const res = await post(url, token, `${RUNS}/${runId}/cancel`, { expected_version: 1 });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ code: 'run_not_active', current_version: 2 });
  });

  it('a cancel that loses to a claim is version_conflict with the claimed version', async () => {
    const { url, token, runId } = await boot();
    armed.rival = claimedBy;
    const res = await post(url, token, `${RUNS}/${runId}/cancel`, { expected_version: 1 });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ code: 'version_conflict', current_version: 2 });
  });

  it('a continue that loses to a claim is run_busy at the claimed version', async () => {
    const { url, token, runId } = await boot();
    armed.rival = claimedBy;
    const res = await post(url, token, `${RUNS}/${runId}/continue`, { expected_version: 1, instruction: 'x' });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ code: 'run_busy', current_version: 2 });
  });

  it('a continue that loses to a cancel is run_not_active at the cancelled version', async () => {
    const { url, token, runId } = await boot();
    armed.rival = cancelledBy;
    const res = await post(url, token, `${RUNS}/${runId}/continue`, { expected_version: 1, instruction: 'x' });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ code: 'run_not_active', current_version: 2 });
  });
});
