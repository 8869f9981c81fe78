import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDialect } from 'kysely';

export interface SqliteOptions {
  readonly path: string;
}

/**
 * The embedded store: one better-sqlite3 connection in WAL mode. `synchronous=FULL` makes every
 * acknowledged commit durable across power loss, not just process death; `busy_timeout` lets a CLI
 * command and a running server share the file.
 */
export const createSqliteDialect = ({ path }: SqliteOptions): SqliteDialect => {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return new SqliteDialect({ database });
};
