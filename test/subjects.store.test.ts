import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSubjectKey } from '../src/domain/identityHashes.js';
import { SUBJECT_FREE_TABLES, SUBJECT_TABLES } from '../src/store/kysely/subjectRecords.js';
import type { ModelProviderRecord } from '../src/store/port.js';
import { eraseSubject } from '../src/service/subjects/eraseSubject.js';
import { summarizeSubject } from '../src/service/subjects/summarizeSubject.js';
import type { SubjectDeps } from '../src/service/subjects/deps.js';
import { gate, waitFor } from './support/harness.js';
import { storeFlavours, type TestStore } from './support/stores.js';
import { dumpTables, inspectable } from './support/tableDump.js';

const SECRET = 'instance-secret-for-the-store-test';

const provider = (providerId: string, ownerHash: string): ModelProviderRecord => ({
  providerId,
  ownerHash,
  kind: 'chat-completions',
  baseUrl: 'http://127.0.0.1:8080/v1',
  model: 'm',
  reasoningEffort: null,
  label: null,
  secret: null,
  createdAt: 1_700_000_000_000,
});

describe.each(inspectable(storeFlavours()))('subject records on $name', (flavour) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await flavour.create();
  });
  afterAll(async () => t?.dispose());

  it('every table is either listed as holding subject rows or declared free of them', async () => {
    // FTS5's shadow tables belong to helix_library_fts (SQLite only).
    const tables = Object.keys(await dumpTables(t)).filter((name) => !name.startsWith('helix_library_fts_'));
    const listed = new Set<string>([...SUBJECT_TABLES.map((s) => s.table), ...SUBJECT_FREE_TABLES]);
    expect(tables.filter((name) => !listed.has(name))).toEqual([]);
    expect(SUBJECT_TABLES.map((s) => s.table).filter((name) => !tables.includes(name))).toEqual([]);
    expect(new Set(SUBJECT_TABLES.map((s) => s.kind)).size).toBe(SUBJECT_TABLES.length);
  });

  it('registering an owner twice keeps one registration under its subject', async () => {
    const subjectKey = dataSubjectKey(SECRET, 'twice');
    await t.store.transaction((uow) => uow.subjects.registerOwner('a'.repeat(64), subjectKey, 1));
    await t.store.transaction((uow) => uow.subjects.registerOwner('a'.repeat(64), subjectKey, 2));
    expect(await t.store.read.subjects.registeredOwners(subjectKey)).toEqual(['a'.repeat(64)]);
  });
});

/**
 * The race only a real server has (SQLite and PGlite run one writer at a time): a mutation of an
 * already registered owner commits while an erase of its subject runs. The mutation's registration
 * upsert locks the registry row, so the erase, which claims the registry first, waits for it and
 * then erases its row. With "insert or do nothing" the row would not be locked and would survive
 * unattributed.
 */
describe.each(storeFlavours().filter((f) => f.name === 'postgres'))(
  'subject erase racing a mutation on $name',
  (flavour) => {
    let t: TestStore;
    afterAll(async () => t?.dispose());

    it('erases the row of a mutation that committed while the erase waited for it', async () => {
      t = await flavour.create();
      const deps: SubjectDeps = { store: t.store, instanceSecret: SECRET, now: () => Date.now() };
      const subjectKey = dataSubjectKey(SECRET, 'racer');
      const owner = 'b'.repeat(64);
      await t.store.transaction(async (uow) => {
        await uow.subjects.registerOwner(owner, subjectKey, 1);
        await uow.modelProviders.insert(provider('mp_first', owner));
      });

      const written = gate();
      const held = gate();
      const mutation = t.store.transaction(async (uow) => {
        await uow.subjects.registerOwner(owner, subjectKey, 2);
        await uow.modelProviders.insert(provider('mp_during_erase', owner));
        written.release();
        await held.opened;
      });
      await written.opened;
      const erasing = eraseSubject(deps, { accountId: 'racer', requestedBy: 'test', idempotencyKey: 'race-erase-1' });
      let erased = false;
      void erasing.then(
        () => (erased = true),
        () => (erased = true),
      );
      const admin = new pg.Client({ connectionString: t.location });
      await admin.connect();
      try {
        // Deterministic: the mutation commits only once the erase is waiting on a lock (or, if it
        // took none, has already finished without the mutation's row).
        const waitingOnLock = async () =>
          (
            await admin.query(
              `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          ).rowCount === 1;
        await waitFor(async () => erased || (await waitingOnLock()));
      } finally {
        await admin.end();
      }
      held.release();
      await mutation;
      const receipt = await erasing;
      expect(receipt.body.records).toMatchObject({ model_providers: 2, owner_registrations: 1 });
      expect(await t.store.read.modelProviders.listByOwner(owner)).toEqual([]);
      await expect(summarizeSubject(deps, 'racer')).rejects.toMatchObject({ code: 'subject_not_found' });
    });
  },
);
