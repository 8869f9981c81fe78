import { Kysely, Migrator, sql, type Dialect } from 'kysely';
import { HelixError } from '../domain/errors.js';
import { classifyStoreError } from './failures.js';
import { accountRepository } from './kysely/accountRepository.js';
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

const unitOfWork = (db: Kysely<HelixDatabase>, dialect: StoreDialect): UnitOfWork => ({
  runs: runRepository(db),
  events: eventRepository(db),
  artifacts: artifactRepository(db),
  receipts: receiptRepository(db),
  apiKeys: apiKeyRepository(db),
  workers: workerRepository(db),
  meta: metaRepository(db),
  library: { ...libraryRepository(db, dialect), ...libraryEmbeddingRepository(db) },
  accounts: accountRepository(db),
  bindings: bindingRepository(db),
  sessions: sessionRepository(db),
  modelProviders: modelProviderRepository(db),
  subjects: subjectRepository(db),
  rooms: roomRepository(db),
  roomSources: roomSourceRepository(db),
  roomIngress: roomIngressRepository(db),
  runtimeApprovals: runtimeApprovalRepository(db),
  embodiment: embodimentRepository(db),
  chats: chatRepository(db),
});

const MAX_ATTEMPTS = 5;

/** One implementation of the storage port for both dialects; only transaction start differs. */
export class KyselyStore implements Store {
  readonly read: UnitOfWork;
  private readonly db: Kysely<HelixDatabase>;

  constructor(
    readonly dialect: StoreDialect,
    driverDialect: Dialect,
  ) {
    this.db = new Kysely<HelixDatabase>({ dialect: driverDialect });
    this.read = unitOfWork(this.db, dialect);
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
        if (failure === 'transient' || failure === 'unavailable') {
          throw new HelixError('store_unavailable', { retry_after_seconds: 1 }, undefined);
        }
        throw err;
      }
    }
  }

  private async runOnce<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') {
      return this.db.transaction().execute((trx) => fn(unitOfWork(trx, this.dialect)));
    }
    // SQLite: BEGIN IMMEDIATE takes the write lock up front, so a read-then-write transaction never
    // fails to upgrade (SQLITE_BUSY without waiting) when another process wrote in between.
    return this.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await fn(unitOfWork(conn, this.dialect));
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
