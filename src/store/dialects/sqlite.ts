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
 * command and a running server share the file; `secure_delete` zeroes what a delete removes.
 */
export const createSqliteDialect = ({ path }: SqliteOptions): SqliteDialect => {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // Deleted rows are overwritten with zeros, not merely unlinked: an erased subject, a deleted
  // provider key's ciphertext or a purged receipt cannot be read back from free pages.
  database.pragma('secure_delete = ON');
  cachePreparedStatements(database);
  return new SqliteDialect({ database });
};

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query anew; preparing is a measurable share of a request at this speed.
 * The SQL text Kysely compiles is stable per query shape, so statements are reused by text. Safe
 * because every statement runs to completion synchronously before the next is prepared.
 */
const cachePreparedStatements = (database: Database.Database): void => {
  const prepare = database.prepare.bind(database);
  const cache = new Map<string, Database.Statement>();
  database.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement === undefined) {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) {
        const oldest = cache.keys().next();
        if (oldest.done !== true) cache.delete(oldest.value);
      }
      cache.set(source, statement);
    }
    return statement;
  }) as typeof database.prepare;
};
