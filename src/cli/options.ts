import type { Command } from 'commander';
import { describeLocation, openStore } from '../store/openStore.js';
import type { Store } from '../store/port.js';
import { DEFAULT_DATABASE } from '../store/openStore.js';

export const databaseOptionHelp = `SQLite file path or postgres:// URL (default: $HELIX_DATABASE_URL or ${DEFAULT_DATABASE})`;

export const addDatabaseOption = (command: Command): Command =>
  command.option('--database <path|url>', databaseOptionHelp);

export const databaseOf = (options: { database?: string }): string =>
  options.database ?? (process.env.HELIX_DATABASE_URL?.trim() || DEFAULT_DATABASE);

/** Opens (and migrates) the store for one CLI command, closing it afterwards whatever happens. */
export const withStore = async <T>(
  options: { database?: string },
  fn: (store: Store, location: string) => Promise<T>,
): Promise<T> => {
  const location = databaseOf(options);
  let store: Store;
  try {
    store = await openStore(location);
  } catch (err) {
    throw new CliError(`cannot open database ${describeLocation(location)}: ${(err as Error).message}`);
  }
  try {
    return await fn(store, location);
  } finally {
    await store.close();
  }
};

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
