import { CompiledQuery, Kysely, Migrator, sql, type Dialect } from 'kysely';
import { CREDENTIALS_CHANNEL, type CredentialsChanged } from './credentialChanges.js';
import { classifyStoreError, reportingUnavailable, storeUnavailable } from './failures.js';
import { accountRepository } from './kysely/accountRepository.js';
import { agentExecutorRepository } from './kysely/agentExecutorRepository.js';
import { apiKeyRepository } from './kysely/apiKeyRepository.js';
import { bindingRepository } from './kysely/bindingRepository.js';
import { chatRepository } from './kysely/chatRepository.js';
import { sessionRepository } from './kysely/sessionRepository.js';
import { artifactRepository } from './kysely/artifactRepository.js';
import { eventRepository } from './kysely/eventRepository.js';
import { libraryEmbeddingRepository } from './kysely/libraryEmbeddingRepository.js';
import { libraryRepository } from './kysely/libraryRepository.js';
import { metaRepository } from './kysely/metaRepository.js';
import { modelProviderRepository } from './kysely/modelProviderRepository.js';
import { receiptRepository } from './kysely/receiptRepository.js';
import { roomRepository } from './kysely/roomRepository.js';
import { embodimentRepository } from './kysely/embodimentRepository.js';
import { roomIngressRepository } from './kysely/roomIngressRepository.js';
import { roomSourceRepository } from './kysely/roomSourceRepository.js';
import { runRepository } from './kysely/runRepository.js';
import { runtimeApprovalRepository } from './kysely/runtimeApprovalRepository.js';
import { subjectRepository } from './kysely/subjectRepository.js';
import { workerRepository } from './kysely/workerRepository.js';
import { migrationProvider, type StoreDialect } from './migrations/index.js';
import type { Store, UnitOfWork } from './port.js';
import type { HelixDatabase } from './schema.js';
import { ATTR, inSpan } from '../telemetry/instruments.js';

type Repositories = { readonly [K in keyof UnitOfWork]: () => UnitOfWork[K] };

/**
 * A unit of work over `db` whose repositories are built on first use: a request touches two or
 * three of the twenty, and building the rest per transaction was a measurable share of a start.
 */
const unitOfWork = (
  db: Kysely<HelixDatabase>,
  dialect: StoreDialect,
  credentialsChanged: CredentialsChanged,
  outsideTransaction = false,
): UnitOfWork => {
  const build: Repositories = {
    runs: () => runRepository(db),
    events: () => eventRepository(db),
    artifacts: () => artifactRepository(db),
    receipts: () => receiptRepository(db),
    apiKeys: () => apiKeyRepository(db, credentialsChanged),
    workers: () => workerRepository(db),
    meta: () => metaRepository(db),
    library: () => ({ ...libraryRepository(db, dialect), ...libraryEmbeddingRepository(db) }),
    accounts: () => accountRepository(db, credentialsChanged),
    bindings: () => bindingRepository(db),
    sessions: () => sessionRepository(db),
    modelProviders: () => modelProviderRepository(db),
    subjects: () => subjectRepository(db, credentialsChanged),
    rooms: () => roomRepository(db),
    roomSources: () => roomSourceRepository(db),
    roomIngress: () => roomIngressRepository(db),
    runtimeApprovals: () => runtimeApprovalRepository(db),
    embodiment: () => embodimentRepository(db),
    chats: () => chatRepository(db),
    agentExecutors: () => agentExecutorRepository(db),
  };
  const uow = {} as UnitOfWork;
  for (const name of Object.keys(build) as (keyof UnitOfWork)[]) {
    Object.defineProperty(uow, name, {
      enumerable: true,
      get() {
        // A transaction classifies its own failures (and retries the transient ones): see withRetries.
        const repository = outsideTransaction ? reportingUnavailable(build[name]()) : build[name]();
        Object.defineProperty(uow, name, { value: repository, enumerable: true });
        return repository;
      },
      configurable: true,
    });
  }
  return uow;
};

/** Whether a transaction changed a credential; it is announced only once the transaction commits. */
interface CredentialChangeMark {
  changed: boolean;
}

const MAX_ATTEMPTS = 5;

/** SQLite: changes when another connection commits to the file (the server's own writes leave it alone). */
const DATA_VERSION = CompiledQuery.raw('pragma data_version');

/** One implementation of the storage port for both dialects; only transaction start differs. */
export class KyselyStore implements Store {
  readonly read: UnitOfWork;
  private readonly db: Kysely<HelixDatabase>;
  private readonly credentialListeners = new Set<() => void>();

  constructor(
    readonly dialect: StoreDialect,
    driverDialect: Dialect,
  ) {
    this.db = new Kysely<HelixDatabase>({ dialect: driverDialect });
    // Outside a transaction each statement commits by itself: a change is announced at once.
    this.read = unitOfWork(this.db, dialect, this.credentialSignal(undefined), true);
  }

  onCredentialsChanged(listener: () => void): () => void {
    this.credentialListeners.add(listener);
    return () => this.credentialListeners.delete(listener);
  }

  /**
   * PostgreSQL: NOTIFY on the statement's own connection, so the notice leaves with the commit
   * (and never for a rolled-back transaction) and reaches every process on the database. Locally:
   * the listeners are told after the commit, never before, so no request re-caches the old state.
   */
  private credentialSignal(mark: CredentialChangeMark | undefined): CredentialsChanged {
    return async (db) => {
      if (this.dialect === 'postgres') await sql`select pg_notify(${CREDENTIALS_CHANNEL}, '')`.execute(db);
      if (mark === undefined) this.announceCredentialChange();
      else mark.changed = true;
    };
  }

  async writesElsewhere(): Promise<number> {
    if (this.dialect === 'postgres') return 0;
    const { rows } = await this.db.executeQuery<{ data_version: number }>(DATA_VERSION);
    return Number(rows[0]?.data_version ?? 0);
  }

  private announceCredentialChange(): void {
    for (const listener of this.credentialListeners) listener();
  }

  async migrate(): Promise<void> {
    const migrator = new Migrator({
      db: this.db,
      provider: migrationProvider(this.dialect),
      migrationTableName: 'helix_migrations',
      migrationLockTableName: 'helix_migrations_lock',
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error !== undefined) {
      const newer = /previously executed migration (\S+) is missing/.exec(String(error))?.[1];
      // A build older than the database (e.g. a `git pull` without `npm install`, so dist/ is stale).
      if (newer !== undefined)
        throw new Error(
          `the database was migrated by a newer Helix (it has migration ${newer}, which this build does not know): update this installation (npm install rebuilds dist/) or use another database`,
          { cause: error },
        );
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`database migration ${failed} failed: ${String(error)}`, { cause: error });
    }
  }

  /** One span per transaction, its retries included (`helix.store.attempts` counts them). */
  transaction<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    const system = this.dialect === 'postgres' ? 'postgresql' : 'sqlite';
    return inSpan('helix.store.transaction', { [ATTR.dbSystem]: system }, (span) =>
      this.withRetries(fn, (attempt) => span.setAttribute(ATTR.storeAttempts, attempt)),
    );
  }

  private async withRetries<T>(fn: (uow: UnitOfWork) => Promise<T>, onAttempt: (attempt: number) => void): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        onAttempt(attempt);
        return await this.runOnce(fn);
      } catch (err) {
        const failure = classifyStoreError(err);
        if (failure === 'transient' && attempt < MAX_ATTEMPTS) {
          await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
          continue;
        }
        if (failure === 'transient' || failure === 'unavailable') throw storeUnavailable();
        throw err;
      }
    }
  }

  private async runOnce<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    const mark: CredentialChangeMark = { changed: false };
    const result = await this.runInTransaction((db) => fn(unitOfWork(db, this.dialect, this.credentialSignal(mark))));
    if (mark.changed) this.announceCredentialChange();
    return result;
  }

  private async runInTransaction<T>(fn: (db: Kysely<HelixDatabase>) => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') return this.db.transaction().execute(fn);
    // SQLite: BEGIN IMMEDIATE takes the write lock up front, so a read-then-write transaction never
    // fails to upgrade (SQLITE_BUSY without waiting) when another process wrote in between.
    return this.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await fn(conn);
        await sql`commit`.execute(conn);
        return result;
      } catch (err) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw err;
      }
    });
  }

  async truncateLog(): Promise<void> {
    if (this.dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
