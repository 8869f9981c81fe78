import { HelixError } from '../domain/errors.js';

/**
 * Classifies driver errors without importing drivers: SQLite codes from better-sqlite3 and
 * PostgreSQL SQLSTATEs from pg/PGlite arrive on `err.code`, socket failures as Node's `E…` codes.
 */
export type StoreFailure = 'transient' | 'unavailable' | 'unique_violation' | 'other';

const TRANSIENT = new Set([
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_LOCKED',
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
]);

const UNAVAILABLE = new Set([
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  '53100', // disk_full
  '53200', // out_of_memory
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  // The server cannot be reached, or the connection to it broke.
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * node-postgres reports a connection that ended, or could not be made in time, with these messages
 * and no code (pg/lib/client.js, pg-pool/index.js): the pool's timeout, a backend that went away.
 */
const UNAVAILABLE_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Query read timeout',
  'timeout expired',
]);

const codeOf = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';

export const classifyStoreError = (err: unknown): StoreFailure => {
  const code = codeOf(err);
  if (TRANSIENT.has(code)) return 'transient';
  // SQLSTATE class 08: connection exception (08000, 08003 no connection, 08006 connection failure, …).
  if (UNAVAILABLE.has(code) || code.startsWith('SQLITE_IOERR') || /^08[0-9A-Z]{3}$/.test(code)) return 'unavailable';
  if (code === '' && err instanceof Error && UNAVAILABLE_MESSAGES.has(err.message)) return 'unavailable';
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') {
    return 'unique_violation';
  }
  return 'other';
};

/** docs/configuration.md "Database": an unreachable or exhausted store is `503` with `Retry-After: 1`. */
export const storeUnavailable = (): HelixError => new HelixError('store_unavailable', { retry_after_seconds: 1 });

/**
 * A repository whose calls outside a transaction report an unreachable store as `store_unavailable`,
 * as a transaction does after its retries: a read has no retry of its own, so a busy or locked store
 * is reported the same way. Every other failure (a unique violation a use case expects, a bug)
 * passes through unchanged.
 */
export const reportingUnavailable = <R extends object>(repository: R): R => {
  const translate = (err: unknown): never => {
    const failure = classifyStoreError(err);
    throw failure === 'transient' || failure === 'unavailable' ? storeUnavailable() : err;
  };
  const wrapped = {} as Record<string, unknown>;
  for (const [name, member] of Object.entries(repository)) {
    wrapped[name] =
      typeof member === 'function'
        ? (...args: unknown[]) => {
            try {
              const result: unknown = member.apply(repository, args);
              return result instanceof Promise ? result.catch(translate) : result;
            } catch (err) {
              return translate(err);
            }
          }
        : member;
  }
  return wrapped as R;
};
