/**
 * Classifies driver errors without importing drivers: SQLite codes from better-sqlite3 and
 * PostgreSQL SQLSTATEs from pg/PGlite arrive on `err.code`.
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
  '57P03', // cannot_connect_now
  '08000',
  '08003',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
]);

export const classifyStoreError = (err: unknown): StoreFailure => {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  if (TRANSIENT.has(code)) return 'transient';
  if (UNAVAILABLE.has(code) || code.startsWith('SQLITE_IOERR')) return 'unavailable';
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') {
    return 'unique_violation';
  }
  return 'other';
};
