import type { Command } from 'commander';
import {
  DatabaseOpenError,
  DEFAULT_DATABASE_LOCATION,
  withOperatorDatabase,
  type OperatorDatabase,
} from '../server/operatorDatabase.js';

export const databaseOptionHelp = `SQLite file path or postgres:// URL (default: $HELIX_DATABASE_URL or ${DEFAULT_DATABASE_LOCATION})`;

export const addDatabaseOption = (command: Command): Command =>
  command.option('--database <path|url>', databaseOptionHelp);

export const databaseOf = (options: { database?: string }): string =>
  options.database ?? (process.env.HELIX_DATABASE_URL?.trim() || DEFAULT_DATABASE_LOCATION);

/**
 * Runs one command against the database `--database` names, opened (and migrated) by the one
 * composition point for operator commands (src/server/operatorDatabase.ts) and closed afterwards.
 */
export const withDatabase = <T>(
  options: { database?: string },
  fn: (database: OperatorDatabase) => Promise<T>,
): Promise<T> =>
  withOperatorDatabase(databaseOf(options), fn).catch((err: unknown) => {
    throw err instanceof DatabaseOpenError ? new CliError(err.message) : err;
  });

/** An expected failure: printed as one line without a stack, exit code 1 (or the given code). */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
