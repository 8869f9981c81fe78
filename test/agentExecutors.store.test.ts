import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRun } from './support/runRecord.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const OWNER = 'a'.repeat(64);
const AGENT = 'e'.repeat(64);
const PERSON = 'f'.repeat(64);

describe.each(storeFlavours())('ATP-31: the run agent-executor ledger (migration 0020) on $name', (flavour) => {
  let testStore: TestStore;
  const runId = 'run_executors01';
  beforeAll(async () => {
    testStore = await flavour.create();
    await testStore.store.read.runs.insert({ ...baseRun(runId), ownerHash: OWNER });
  });
  afterAll(async () => testStore?.dispose());

  it('records a credential hash per run once, answers only for that run, and is erased with the subject', async () => {
    const { store } = testStore;
    await store.transaction((uow) => uow.agentExecutors.record(runId, AGENT, 1_000));
    // A second claim or completion by the same credential writes nothing and fails nothing.
    await store.transaction((uow) => uow.agentExecutors.record(runId, AGENT, 2_000));
    expect(await store.read.agentExecutors.executed(runId, AGENT)).toBe(true);
    expect(await store.read.agentExecutors.executed(runId, PERSON)).toBe(false);
    expect(await store.read.agentExecutors.executed('run_executors02', AGENT)).toBe(false);

    const scope = { accountId: 'account-a', ownerHashes: [OWNER] };
    expect((await store.read.subjects.count(scope)).run_agent_executors).toBe(1);
    const exported = (await store.read.subjects.exportRecords(scope)).run_agent_executors;
    // The credential hash is never exported.
    expect(exported).toEqual([{ run_id: runId, recorded_at: new Date(1_000).toISOString() }]);
    await store.transaction((uow) => uow.subjects.erase(scope));
    expect(await store.read.agentExecutors.executed(runId, AGENT)).toBe(false);
  });
});
