import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyStoreError, reportingUnavailable } from './failures.js';
import { openStore } from './openStore.js';

const withCode = (code: string, message = 'driver text') => Object.assign(new Error(message), { code });

// Issue 27, item 14: a PostgreSQL server that went away reached callers as 500 internal_error.
describe('classifyStoreError', () => {
  it('names an unreachable or broken connection unavailable, whichever way the driver says it', () => {
    const unavailable = [
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      withCode('ETIMEDOUT'),
      withCode('57P01'), // pg_terminate_backend, a shutdown
      withCode('57P03'),
      withCode('08006'),
      withCode('08P01'),
      withCode('53300'),
      withCode('SQLITE_IOERR_SHORT_READ'),
      withCode('SQLITE_FULL'),
      // node-postgres, without a code:
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
    ];
    expect(unavailable.map(classifyStoreError)).toEqual(unavailable.map(() => 'unavailable'));
  });

  it('keeps transient, unique and every other failure apart', () => {
    expect(classifyStoreError(withCode('SQLITE_BUSY'))).toBe('transient');
    expect(classifyStoreError(withCode('40001'))).toBe('transient');
    expect(classifyStoreError(withCode('23505'))).toBe('unique_violation');
    expect(classifyStoreError(withCode('42P01'))).toBe('other');
    expect(classifyStoreError(withCode('0800'))).toBe('other');
    // The message counts only when the driver gave no code, and only verbatim.
    expect(classifyStoreError(withCode('42601', 'Connection terminated unexpectedly'))).toBe('other');
    expect(classifyStoreError(new Error('Connection terminated unexpectedly by user input'))).toBe('other');
    expect(classifyStoreError('Connection terminated unexpectedly')).toBe('other');
    expect(classifyStoreError(undefined)).toBe('other');
  });
});

describe('reportingUnavailable', () => {
  const repository = {
    refused: async () => Promise.reject(withCode('ECONNREFUSED')),
    busy: () => {
      throw withCode('SQLITE_BUSY');
    },
    duplicate: async () => Promise.reject(withCode('23505')),
    bug: async () => Promise.reject(new TypeError('x is undefined')),
    plain: (n: number) => n + 1,
  };
  const wrapped = reportingUnavailable(repository);

  it('reports an unavailable or busy store as store_unavailable with retry_after_seconds 1', async () => {
    for (const call of [wrapped.refused, wrapped.busy])
      await expect(Promise.resolve().then(call)).rejects.toMatchObject({
        code: 'store_unavailable',
        status: 503,
        details: { retry_after_seconds: 1 },
      });
  });

  it('passes every other failure and every result through unchanged', async () => {
    await expect(wrapped.duplicate()).rejects.toMatchObject({ code: '23505' });
    await expect(wrapped.bug()).rejects.toBeInstanceOf(TypeError);
    expect(wrapped.plain(1)).toBe(2);
  });
});

describe('SQLite outside a transaction, with the file locked by another process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-locked-db-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // The same answer a transaction gives once its retries are spent: 503 store_unavailable.
  it('answers store_unavailable once the busy timeout passes, not the driver error', async () => {
    const path = join(dir, 'helix.db');
    const store = await openStore(path);
    const other = new Database(path);
    try {
      other.exec('begin immediate');
      await expect(store.read.meta.setIfAbsent('locked', 'x')).rejects.toMatchObject({ code: 'store_unavailable' });
      other.exec('rollback');
      expect(await store.read.meta.setIfAbsent('locked', 'x')).toBe('x');
    } finally {
      other.close();
      await store.close();
    }
  }, 30_000);
});
