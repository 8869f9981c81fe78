import { resolve } from 'node:path';
import { createPostgresDialect } from './dialects/postgres.js';
import { createSqliteDialect } from './dialects/sqlite.js';
import { KyselyStore } from './kyselyStore.js';
import type { Store } from './port.js';

export const DEFAULT_DATABASE = './.helix/helix.db';

/** A `postgres://` or `postgresql://` URL selects PostgreSQL; anything else is a SQLite file path. */
export const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);

export interface OpenStoreOptions {
  /** Told when a pooled PostgreSQL connection fails while idle; the pool replaces it on next use. */
  readonly onConnectionError?: (err: Error) => void;
}

/** Opens and migrates the store named by a path or URL. */
export const openStore = async (
  location: string = DEFAULT_DATABASE,
  options: OpenStoreOptions = {},
): Promise<Store> => {
  const store = isPostgresUrl(location)
    ? new KyselyStore('postgres', createPostgresDialect({ connectionString: location, ...options }))
    : new KyselyStore('sqlite', createSqliteDialect({ path: location === ':memory:' ? location : resolve(location) }));
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  return store;
};

/** Names a database location for humans without revealing a password in a URL. */
export const describeLocation = (location: string): string => {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
};
