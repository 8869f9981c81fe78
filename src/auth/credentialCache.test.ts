import { loadConfig } from '../config.js';
import { describe, expect, it } from 'vitest';
import { ScopeSet } from '../domain/scopes.js';
import { CredentialCache } from './credentialCache.js';
import type { Principal } from './principal.js';

const principal = (accountId: string): Principal => ({
  kind: 'api_key',
  tenantId: 't',
  issuer: 'urn:helix:api-key',
  subject: accountId,
  accountId,
  scopes: new ScopeSet(['helix.agent_runs.read']),
  credentialId: `key_${accountId}`,
  linkedAccount: false,
});

const cacheAt = (clock: { now: number }, ttlMs = 5000, maxEntries = 100) =>
  new CredentialCache({ ttlMs, maxEntries, now: () => clock.now });

describe('the verified-credential cache (issue 19)', () => {
  it('serves an entry until its time is up, then forgets it', () => {
    const clock = { now: 1000 };
    const cache = cacheAt(clock);
    cache.set('h1', principal('a'), cache.begin());
    clock.now += 4999;
    expect(cache.get('h1')?.accountId).toBe('a');
    clock.now += 1;
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('a clear drops every entry, and a verification begun before it is not stored after it', () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    cache.set('h1', principal('a'), cache.begin());
    const begunBeforeRevocation = cache.begin();
    cache.clear();
    expect(cache.get('h1')).toBeUndefined();
    // The slow request read the key before the revocation committed: what it found must not be cached.
    cache.set('h2', principal('b'), begunBeforeRevocation);
    expect(cache.get('h2')).toBeUndefined();
    cache.set('h2', principal('b'), cache.begin());
    expect(cache.get('h2')?.accountId).toBe('b');
  });

  it('forgets everything when another process wrote to the database, and not before', () => {
    const cache = cacheAt({ now: 0 });
    cache.noteWritesElsewhere(7);
    cache.set('h1', principal('a'), cache.begin());
    cache.noteWritesElsewhere(7);
    expect(cache.get('h1')?.accountId).toBe('a');
    cache.noteWritesElsewhere(8);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const cache = cacheAt({ now: 0 }, 5000, 2);
    for (const name of ['a', 'b', 'c']) cache.set(name, principal(name), cache.begin());
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')?.accountId).toBe('c');
  });

  it('stores nothing when its time is 0 (HELIX_CREDENTIAL_CACHE_SECONDS=0)', () => {
    const cache = cacheAt({ now: 0 }, 0);
    cache.set('h1', principal('a'), cache.begin());
    expect(cache.get('h1')).toBeUndefined();
  });
});

describe('HELIX_CREDENTIAL_CACHE_SECONDS (issue 19)', () => {
  it('defaults to 5 s, accepts 0 (off) to 300, and refuses anything else naming the variable', () => {
    expect(loadConfig({}).credentialCacheTtlMs).toBe(5000);
    expect(loadConfig({ HELIX_CREDENTIAL_CACHE_SECONDS: '0' }).credentialCacheTtlMs).toBe(0);
    expect(loadConfig({ HELIX_CREDENTIAL_CACHE_SECONDS: '300' }).credentialCacheTtlMs).toBe(300_000);
    for (const bad of ['301', '-1', '2.5', '5s', 'forever'])
      expect(() => loadConfig({ HELIX_CREDENTIAL_CACHE_SECONDS: bad })).toThrow(
        expect.objectContaining({
          name: expect.any(String),
          message: expect.stringContaining('HELIX_CREDENTIAL_CACHE_SECONDS'),
        }),
      );
  });
});
