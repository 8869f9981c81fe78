import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createPgliteDialect } from '../../src/store/dialects/pglite.js';
import { KyselyStore } from '../../src/store/kyselyStore.js';
import { openStore } from '../../src/store/openStore.js';
import type { Store } from '../../src/store/port.js';

/** A store under test plus how to throw it away. */
export interface TestStore {
  readonly store: Store;
  /** The location a separate process can open (a file path or URL); undefined for PGlite. */
  readonly location: string | undefined;
  dispose(): Promise<void>;
}

export interface StoreFlavour {
  readonly name: string;
  create(): Promise<TestStore>;
}

const sqliteFlavour: StoreFlavour = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'helix-test-'));
    const location = join(dir, 'helix.db');
    const store = await openStore(location);
    return {
      store,
      location,
      async dispose() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const pgliteFlavour: StoreFlavour = {
  name: 'pglite',
  async create() {
    const store = new KyselyStore('postgres', createPgliteDialect(new PGlite()));
    await store.migrate();
    return { store, location: undefined, dispose: () => store.close() };
  },
};

/** A fresh database on the real PostgreSQL server named by HELIX_TEST_POSTGRES_URL (CI). */
export const createPostgresDatabase = async (adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> => {
  const name = `helix_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
};

const postgresFlavour = (adminUrl: string): StoreFlavour => ({
  name: 'postgres',
  async create() {
    const database = await createPostgresDatabase(adminUrl);
    const store = await openStore(database.url);
    return {
      store,
      location: database.url,
      async dispose() {
        await store.close();
        await database.drop();
      },
    };
  },
});

/** Every dialect the suite runs against here: SQLite and PGlite always, a real server when configured. */
export const storeFlavours = (): StoreFlavour[] => {
  const flavours = [sqliteFlavour, pgliteFlavour];
  const adminUrl = process.env.HELIX_TEST_POSTGRES_URL;
  if (adminUrl !== undefined && adminUrl !== '') flavours.push(postgresFlavour(adminUrl));
  return flavours;
};

/** Flavours a separate server process can open (PGlite lives inside this process only). */
export const serverStoreFlavours = (): StoreFlavour[] => storeFlavours().filter((f) => f.name !== 'pglite');
