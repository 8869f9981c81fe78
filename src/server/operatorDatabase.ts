import { AccountPolicies } from '../accounts/accountPolicies.js';
import { loadInstanceSecret } from '../auth/instanceSecret.js';
import { accountPolicyDefaults } from '../config/accountPolicyConfig.js';
import type { AccountDeps } from '../service/accounts/deps.js';
import type { LibraryDeps } from '../service/library/deps.js';
import type { RoomDeps } from '../service/rooms/deps.js';
import type { SubjectDeps } from '../service/subjects/deps.js';
import { MIGRATION_NAMES } from '../store/migrations/index.js';
import { DEFAULT_DATABASE, describeLocation, openStore } from '../store/openStore.js';
import type { Store } from '../store/port.js';
import { roomSourceAdapters } from '../service/roomSources/adapterRegistry.js';

/** Where an operator command acts when neither `--database` nor HELIX_DATABASE_URL names a database. */
export const DEFAULT_DATABASE_LOCATION = DEFAULT_DATABASE;

/**
 * What one operator command (a `helix` subcommand run against the database) gets: the use cases'
 * dependencies, never the store itself. The CLI opens the database only here.
 */
export interface OperatorDatabase {
  /** The database named for humans: a URL's password is masked. */
  readonly description: string;
  readonly dialect: 'sqlite' | 'postgres';
  /** The newest migration, which opening applied. */
  readonly migration: string;
  readonly accounts: AccountDeps;
  readonly subjects: SubjectDeps;
  readonly library: LibraryDeps;
  readonly rooms: RoomDeps;
}

/** Opening or migrating failed: the message names the database without its password. */
export class DatabaseOpenError extends Error {
  override readonly name = 'DatabaseOpenError';
}

/** As the server serves rooms (src/server.ts); no idempotent creation happens from the CLI. */
const operatorRoomDeps = (store: Store, instanceSecret: string, now: () => number): RoomDeps => {
  // The deployment default is read when a room command first asks, so a bad HELIX_ACCOUNT_DEFAULT_*
  // fails the room command (a configuration error) and never the other operator commands.
  let policies: AccountPolicies | undefined;
  const current = (): AccountPolicies => {
    policies ??= new AccountPolicies(store, accountPolicyDefaults(process.env));
    return policies;
  };
  return {
    store,
    instanceSecret,
    policies: {
      forPrincipal: (principal) => current().forPrincipal(principal),
      forAccount: (accountId) => current().forAccount(accountId),
    },
    // Used only by idempotent creation through the API (RECEIPT_TTL_MS in src/server.ts), never by the CLI.
    receiptTtlMs: 24 * 60 * 60 * 1000,
    now,
    // The CLI creates no sources; the fixture profile stays off whatever the environment says.
    adapters: roomSourceAdapters(false),
  };
};

/**
 * Opens (and migrates) the database for one operator command, runs it, and closes the database
 * whatever happens. The command's clock is the wall clock.
 */
export const withOperatorDatabase = async <T>(
  location: string,
  command: (database: OperatorDatabase) => Promise<T>,
): Promise<T> => {
  const description = describeLocation(location);
  const store = await openStore(location).catch((err: unknown) => {
    throw new DatabaseOpenError(`cannot open database ${description}: ${(err as Error).message}`);
  });
  try {
    const now = (): number => Date.now();
    const instanceSecret = await loadInstanceSecret(store);
    return await command({
      description,
      dialect: store.dialect,
      migration: MIGRATION_NAMES.at(-1) ?? '',
      accounts: { store, instanceSecret, now },
      subjects: { store, instanceSecret, now },
      library: { store, now },
      rooms: operatorRoomDeps(store, instanceSecret, now),
    });
  } finally {
    await store.close();
  }
};
