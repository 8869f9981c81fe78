import { existsSync, readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createPgliteDialect } from '../../src/store/dialects/pglite.js';
import { KyselyStore } from '../../src/store/kyselyStore.js';
import type { Store } from '../../src/store/port.js';
import type { StoreFlavour, TestStore } from './stores.js';

/** Every row of every table, each row as JSON text, sorted: what the database holds, read generically. */
export type TableDump = Readonly<Record<string, readonly string[]>>;

const pgliteHandles = new Map<Store, PGlite>();

/** PGlite with its handle kept, so a test can read every table as stored. */
const inspectablePglite: StoreFlavour = {
  name: 'pglite',
  async create() {
    const db = new PGlite();
    const store = new KyselyStore('postgres', createPgliteDialect(db));
    await store.migrate();
    pgliteHandles.set(store, db);
    return { store, location: undefined, dispose: () => store.close() };
  },
};

/** The given flavours, with PGlite swapped for one whose handle `pgliteOf` returns (dumpTables reads it). */
export const inspectable = (flavours: readonly StoreFlavour[]): StoreFlavour[] =>
  flavours.map((f) => (f.name === 'pglite' ? inspectablePglite : f));

/** The PGlite instance behind a store of the inspectable flavour. */
export const pgliteOf = (store: Store): PGlite | undefined => pgliteHandles.get(store);

type Query = (text: string) => Promise<Record<string, unknown>[]>;

const postgresDump = async (query: Query): Promise<TableDump> => {
  const tables = await query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const dump: Record<string, string[]> = {};
  for (const { tablename } of tables) {
    const rows = await query(`SELECT row_to_json(t)::text AS row FROM public."${String(tablename)}" t`);
    dump[String(tablename)] = rows.map((r) => String(r.row)).sort();
  }
  return dump;
};

export const dumpTables = async (t: TestStore): Promise<TableDump> => {
  const pglite = pgliteHandles.get(t.store);
  if (pglite !== undefined)
    return postgresDump(async (text) => (await pglite.query<Record<string, unknown>>(text)).rows);
  if (t.location?.startsWith('postgres') === true) {
    const client = new pg.Client({ connectionString: t.location });
    await client.connect();
    try {
      return await postgresDump(async (text) => (await client.query(text)).rows as Record<string, unknown>[]);
    } finally {
      await client.end();
    }
  }
  const db = new Database(t.location!, { readonly: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (db.prepare(`SELECT * FROM "${name}"`).all() as unknown[]).map((row) => JSON.stringify(row)).sort(),
      ]),
    );
  } finally {
    db.close();
  }
};

/** SQLite only: the bytes of the database file and its WAL and shared-memory files, as on disk. */
export const sqliteFileBytes = (location: string): Buffer =>
  Buffer.concat(
    [location, `${location}-wal`, `${location}-shm`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
  );
