import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../src/domain/run.js';
import type { RunListQuery } from '../src/store/port.js';
import { baseRun } from './support/runRecord.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const MINE = 'a'.repeat(64);
const ALSO_MINE = 'b'.repeat(64);
const THEIRS = 'c'.repeat(64);

const run = (n: number, overrides: Partial<RunRecord>): RunRecord => ({
  ...baseRun(`run_list${String(n).padStart(6, '0')}`),
  ownerHash: MINE,
  createdAt: 1_700_000_000_000 + n * 1000,
  ...overrides,
});

/** Fixture: six of mine over two owner hashes (two created in the same millisecond), one of another owner. */
const RUNS: readonly RunRecord[] = [
  run(1, { objective: 'Compare the 50% rule_of thumb', lifecycle: 'completed' }),
  run(2, { objective: 'Summarise the CONTRACT terms' }),
  run(3, { objective: 'contract renewal dates', ownerHash: ALSO_MINE, lifecycle: 'completed' }),
  run(4, { objective: 'Évaluer le rapport météo' }),
  run(5, { objective: 'Tie A', createdAt: 1_700_000_009_000 }),
  run(6, { objective: 'Tie B', createdAt: 1_700_000_009_000 }),
  run(7, { objective: 'Their contract', ownerHash: THEIRS }),
];

describe.each(storeFlavours())('run list query on $name', (flavour) => {
  let testStore: TestStore;
  beforeAll(async () => {
    testStore = await flavour.create();
    for (const r of RUNS) await testStore.store.read.runs.insert(r);
  });
  afterAll(async () => testStore?.dispose());

  const ids = async (query: Partial<RunListQuery>) =>
    (await testStore.store.read.runs.listForOwners({ ownerHashes: [MINE, ALSO_MINE], limit: 50, ...query })).map((r) =>
      r.runId.slice(-1),
    );

  it('lists only the given owners, newest first, the same millisecond broken by run id', async () => {
    expect(await ids({})).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(await ids({ ownerHashes: [THEIRS] })).toEqual(['7']);
    expect(await ids({ ownerHashes: [] })).toEqual([]);
  });

  it('pages by keyset: each page starts strictly after the last run of the previous one', async () => {
    const first = await testStore.store.read.runs.listForOwners({ ownerHashes: [MINE, ALSO_MINE], limit: 2 });
    expect(first.map((r) => r.runId.slice(-1))).toEqual(['6', '5']);
    const last = first[1]!;
    expect(await ids({ limit: 2, after: { createdAt: last.createdAt, runId: last.runId } })).toEqual(['4', '3']);
    // Between the two tied runs: only the lower run id of that millisecond remains, then older ones.
    expect(await ids({ limit: 2, after: { createdAt: 1_700_000_009_000, runId: 'run_list000006' } })).toEqual([
      '5',
      '4',
    ]);
  });

  it('filters by lifecycle status, objective text (ASCII case ignored) and creation time', async () => {
    expect(await ids({ lifecycle: 'completed' })).toEqual(['3', '1']);
    expect(await ids({ text: 'contract' })).toEqual(['3', '2']);
    expect(await ids({ text: 'CONTRACT', lifecycle: 'waiting' })).toEqual(['2']);
    // Text beyond ASCII matches at least as written on every dialect (SQLite folds only ASCII case).
    expect(await ids({ text: 'Évaluer' })).toEqual(['4']);
    expect(await ids({ createdFrom: 1_700_000_002_000, createdBefore: 1_700_000_004_000 })).toEqual(['3', '2']);
  });

  it("LIKE's wildcards in the search text match only themselves", async () => {
    expect(await ids({ text: '50%' })).toEqual(['1']);
    expect(await ids({ text: '%' })).toEqual(['1']);
    expect(await ids({ text: 'rule_of' })).toEqual(['1']);
    expect(await ids({ text: '_' })).toEqual(['1']);
    expect(await ids({ text: '\\' })).toEqual([]);
  });
});
