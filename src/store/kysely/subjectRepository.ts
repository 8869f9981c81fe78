import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { CredentialsChanged } from '../credentialChanges.js';
import type { ErasureRecord, SubjectCounts, SubjectRecords, SubjectRepository, SubjectScope } from '../port.js';
import type { HelixDatabase, SubjectErasuresTable } from '../schema.js';
import { toMillis } from './columns.js';
import { compiledOnce } from './compiledOnce.js';
import { SUBJECT_TABLES, type SubjectTable } from './subjectRecords.js';

/**
 * The WHERE clause that finds a table's rows of the subject; undefined when none can exist (no
 * owner is attributed to it). Identifiers come from SUBJECT_TABLES, never from input.
 */
const matchOf = (table: SubjectTable, scope: SubjectScope): RawBuilder<unknown> | undefined => {
  const column = sql.ref(table.column);
  if (table.match === 'account') return sql`${column} = ${scope.accountId}`;
  if (scope.ownerHashes.length === 0) return undefined;
  const owners = sql.join(scope.ownerHashes);
  if (table.match === 'owner') return sql`${column} in (${owners})`;
  return sql`${column} in (select run_id from helix_agent_runs where owner_hash in (${owners}))`;
};

/** Instants as ISO strings and JSON text parsed, so the export reads the same on both dialects. */
const exportedRow = (table: SubjectTable, row: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    table.exported.map((column) => {
      const value = row[column];
      if (value === null || value === undefined) return [column, null];
      if (column.endsWith('_at')) return [column, new Date(toMillis(value as number | string)).toISOString()];
      if ((table.json as readonly string[] | undefined)?.includes(column))
        return [column, JSON.parse(value as string) as unknown];
      return [column, value];
    }),
  );

const erasureFromRow = (row: Selectable<SubjectErasuresTable>): ErasureRecord => ({
  erasureId: row.erasure_id,
  subjectKey: row.subject_key,
  requestedBy: row.requested_by,
  idempotencyKeyHash: row.idempotency_key_hash,
  records: JSON.parse(row.records) as SubjectCounts,
  erasedAt: toMillis(row.erased_at),
});

type Part<K extends keyof SubjectRepository> = Pick<SubjectRepository, K>;

/**
 * Every start and continue registers its owner: compiled once (compiledOnce.ts), and an unchanged
 * row is left alone (no page written).
 */
const upsertOwner = compiledOnce((db, ownerHash: string, subjectKey: string, at: number) =>
  db
    .insertInto('helix_subject_owners')
    .values({ owner_hash: ownerHash, subject_key: subjectKey, created_at: at })
    .onConflict((oc) =>
      oc
        .column('owner_hash')
        .doUpdateSet({ subject_key: (eb) => eb.ref('excluded.subject_key') })
        .where((eb) => eb('helix_subject_owners.subject_key', '<>', eb.ref('excluded.subject_key'))),
    ),
);

/** Which owner hashes belong to a subject, and whether any of them has a turn in progress. */
const ownerRegistry = (
  db: Kysely<HelixDatabase>,
): Part<'registerOwner' | 'registeredOwners' | 'releaseOwners' | 'countTurnsInProgress'> => ({
  async registerOwner(ownerHash, subjectKey, at) {
    await upsertOwner(db, ownerHash, subjectKey, at);
  },
  async registeredOwners(subjectKey) {
    const rows = await db
      .selectFrom('helix_subject_owners')
      .select('owner_hash')
      .where('subject_key', '=', subjectKey)
      .orderBy('owner_hash')
      .execute();
    return rows.map((r) => r.owner_hash);
  },
  async releaseOwners(subjectKey) {
    const rows = await db
      .deleteFrom('helix_subject_owners')
      .where('subject_key', '=', subjectKey)
      .returning('owner_hash')
      .execute();
    return rows.map((r) => r.owner_hash).sort();
  },
  async countTurnsInProgress(ownerHashes, now) {
    if (ownerHashes.length === 0) return 0;
    const row = await db
      .selectFrom('helix_agent_runs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('owner_hash', 'in', ownerHashes)
      .where('turn_id', 'is not', null)
      .where('turn_lease_expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
});

/** The subject's own rows are deleted; a reference to it in another's row is cleared (SubjectTable.erasure). */
const eraseRows = (table: SubjectTable, match: RawBuilder<unknown>): RawBuilder<unknown> =>
  table.erasure === 'clear'
    ? sql`update ${sql.table(table.table)} set ${sql.ref(table.column)} = null where ${match}`
    : sql`delete from ${sql.table(table.table)} where ${match}`;

/** Count, export and erase the subject's rows in every table of SUBJECT_TABLES. */
const subjectRows = (
  db: Kysely<HelixDatabase>,
  credentialsChanged: CredentialsChanged,
): Part<'count' | 'exportRecords' | 'erase'> => ({
  async count(scope) {
    const counts: Record<string, number> = {};
    for (const table of SUBJECT_TABLES) {
      const match = matchOf(table, scope);
      const row =
        match === undefined
          ? undefined
          : (
              await sql<{
                n: number | string;
              }>`select count(*) as n from ${sql.table(table.table)} where ${match}`.execute(db)
            ).rows[0];
      counts[table.kind] = Number(row?.n ?? 0);
    }
    return counts;
  },
  async exportRecords(scope) {
    const records: Record<string, Record<string, unknown>[]> = {};
    for (const table of SUBJECT_TABLES) {
      const match = matchOf(table, scope);
      if (match === undefined) {
        records[table.kind] = [];
        continue;
      }
      const columns = sql.join(table.exported.map((c) => sql.ref(c)));
      const order = sql.join(table.orderBy.map((c) => sql.ref(c)));
      const { rows } = await sql<
        Record<string, unknown>
      >`select ${columns} from ${sql.table(table.table)} where ${match} order by ${order}`.execute(db);
      records[table.kind] = rows.map((row) => exportedRow(table, row));
    }
    return records satisfies SubjectRecords;
  },
  async erase(scope) {
    const counts: Record<string, number> = {};
    for (const table of [...SUBJECT_TABLES].reverse()) {
      const match = matchOf(table, scope);
      const result = match === undefined ? undefined : await eraseRows(table, match).execute(db);
      counts[table.kind] = Number(result?.numAffectedRows ?? 0n);
    }
    // The subject's keys are gone (and with them any principal verified from one).
    await credentialsChanged(db);
    // Reported in the list's order, like count().
    return Object.fromEntries(SUBJECT_TABLES.map((t) => [t.kind, counts[t.kind] ?? 0]));
  },
});

/** The audit log of erasures (also the erase operation's idempotency record). */
const erasureLog = (db: Kysely<HelixDatabase>): Part<'recordErasure' | 'findErasure' | 'latestErasure'> => ({
  async recordErasure(e) {
    await db
      .insertInto('helix_subject_erasures')
      .values({
        erasure_id: e.erasureId,
        subject_key: e.subjectKey,
        requested_by: e.requestedBy,
        idempotency_key_hash: e.idempotencyKeyHash,
        records: JSON.stringify(e.records),
        erased_at: e.erasedAt,
      })
      .execute();
  },
  async findErasure(requestedBy, idempotencyKeyHash) {
    const row = await db
      .selectFrom('helix_subject_erasures')
      .selectAll()
      .where('requested_by', '=', requestedBy)
      .where('idempotency_key_hash', '=', idempotencyKeyHash)
      .executeTakeFirst();
    return row === undefined ? undefined : erasureFromRow(row);
  },
  async latestErasure(subjectKey) {
    const row = await db
      .selectFrom('helix_subject_erasures')
      .selectAll()
      .where('subject_key', '=', subjectKey)
      .orderBy('erased_at', 'desc')
      .orderBy('erasure_id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? undefined : erasureFromRow(row);
  },
});

export const subjectRepository = (
  db: Kysely<HelixDatabase>,
  credentialsChanged: CredentialsChanged,
): SubjectRepository => ({
  ...ownerRegistry(db),
  ...subjectRows(db, credentialsChanged),
  ...erasureLog(db),
});
