import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDialect } from '../dialects/pglite.js';
import { createSqliteDialect } from '../dialects/sqlite.js';
import type { HelixDatabase } from '../schema.js';
import { compiledOnce } from './compiledOnce.js';

const sqlite = new Kysely<HelixDatabase>({ dialect: createSqliteDialect({ path: ':memory:' }) });
const pglite = new Kysely<HelixDatabase>({ dialect: createPgliteDialect(new PGlite()) });
afterAll(async () => {
  await sqlite.destroy();
  await pglite.destroy();
});

const createMeta = async (db: Kysely<HelixDatabase>) =>
  db.schema
    .createTable('helix_meta')
    .ifNotExists()
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text')
    .execute();

describe('statements compiled once (issue 19)', () => {
  it.each([
    ['SQLite', sqlite],
    ['PostgreSQL (PGlite)', pglite],
  ])("%s: each call binds its own values, rows and scalars alike, with the dialect's own SQL", async (_name, db) => {
    await createMeta(db);
    // The test table's value may be null (helix_meta's may not): the row is typed for the test, not the schema.
    const insert = compiledOnce((d, row: { key: string; value: string | null }) =>
      d.insertInto('helix_meta').values(row as { key: string; value: string }),
    );
    const select = compiledOnce((d, key: string) => d.selectFrom('helix_meta').selectAll().where('key', '=', key));
    await insert(db, { key: 'a', value: '1' });
    await insert(db, { key: 'b', value: null });
    // Other properties than the template's: built the ordinary way, same outcome.
    await insert(db, { key: 'c' } as { key: string; value: string | null });
    expect((await select<{ key: string; value: string | null }>(db, 'a')).rows).toEqual([{ key: 'a', value: '1' }]);
    expect((await select<{ key: string; value: string | null }>(db, 'b')).rows).toEqual([{ key: 'b', value: null }]);
    expect((await select<{ key: string; value: string | null }>(db, 'c')).rows).toEqual([{ key: 'c', value: null }]);
    expect((await select(db, 'missing')).rows).toEqual([]);
  });

  it('refuses a statement that transforms an argument instead of binding it', async () => {
    const bad = compiledOnce((d, value: string) =>
      d.selectFrom('helix_meta').selectAll().where('value', '=', JSON.stringify(value)),
    );
    await expect(bad(sqlite, 'x')).rejects.toThrow(/argument 0 is not a plain parameter/);
  });
});
