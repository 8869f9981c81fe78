import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startCodexAuthServer,
  startHitCounter,
  type CodexAuthServer,
  type IssuedTokens,
} from '../../../test/support/codexAuthServer.js';
import { ModelError } from '../port.js';
import { CodexCredentials, codexAuthStatus, saveCodexLogin } from './codexCredentials.js';
import { FileCredentialDocumentStore, type CredentialDocumentStore } from './credentialStore.js';
import type { CodexEndpoints } from './endpoints.js';
import { jwtExpiry } from './tokenClient.js';

const never = new AbortController().signal;
let home: string;
let auth: CodexAuthServer;
let endpoints: CodexEndpoints;
let store: FileCredentialDocumentStore;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'helix-codex-creds-'));
  auth = await startCodexAuthServer();
  endpoints = { issuer: auth.origin, api: auth.origin };
  store = new FileCredentialDocumentStore({ home });
});
afterEach(async () => {
  await auth.close();
  await rm(home, { recursive: true, force: true });
});

const seed = async (expiresInSeconds: number, target = store): Promise<IssuedTokens> => {
  const tokens = await auth.mint({ expiresInSeconds });
  await saveCodexLogin(target, 'local', {
    idToken: tokens.id_token,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: Date.now() + expiresInSeconds * 1000,
    accountId: auth.accountId,
  });
  return tokens;
};

const onDisk = async () =>
  JSON.parse(await readFile(store.pathOf('local'), 'utf8')) as {
    version: number;
    tokens: { id_token: string; access_token: string; refresh_token: string };
    health: { state: string; reason?: string };
  };

const credentials = (now?: () => number, target: CredentialDocumentStore = store) =>
  new CodexCredentials({ store: target, ownerKey: 'local', endpoints, ...(now === undefined ? {} : { now }) });

describe('Codex credentials', () => {
  it('uses a fresh token as is and refreshes within 60 s of exp', async () => {
    const seeded = await seed(3600);
    const exp = jwtExpiry(seeded.access_token)!;
    expect((await credentials(() => exp - 61_000).access(never)).accessToken).toBe(seeded.access_token);
    expect(auth.grants('refresh_token')).toHaveLength(0);
    const refreshed = await credentials(() => exp - 59_000).access(never);
    expect(refreshed.accessToken).not.toBe(seeded.access_token);
    expect(refreshed.accountId).toBe(auth.accountId);
    expect(auth.grants('refresh_token')).toHaveLength(1);
  });

  it('persists a rotated refresh token before answering', async () => {
    const seeded = await seed(-10);
    const access = await credentials().access(never);
    const doc = await onDisk();
    expect(auth.grants('refresh_token')[0]?.fields.refresh_token).toBe(seeded.refresh_token);
    expect(doc.tokens.refresh_token).not.toBe(seeded.refresh_token);
    expect(doc.tokens.access_token).toBe(access.accessToken);
    expect(doc.health.state).toBe('ok');
  });

  it('keeps the stored tokens a refresh response omitted', async () => {
    const seeded = await seed(-10);
    auth.scriptRefresh({ kind: 'partial', fields: ['access_token'] });
    await credentials().access(never);
    const doc = await onDisk();
    expect(doc.tokens.refresh_token).toBe(seeded.refresh_token);
    expect(doc.tokens.id_token).toBe(seeded.id_token);
    expect(doc.tokens.access_token).not.toBe(seeded.access_token);
  });

  const terminal = [
    [400, { error: { code: 'refresh_token_expired' } }, 'refresh_token_expired'],
    [400, { error: { code: 'refresh_token_reused' } }, 'refresh_token_reused'],
    [400, { code: 'refresh_token_invalidated' }, 'refresh_token_invalidated'],
    [400, { error: 'invalid_grant' }, 'invalid_grant'],
    [401, { error: 'unauthorized_client' }, 'unauthorized'],
  ] as const;
  for (const [status, body, reason] of terminal) {
    it(`persists reconnect-required on a terminal refresh (${reason}) and stops refreshing`, async () => {
      await seed(-10);
      auth.scriptRefresh({ kind: 'error', status, body });
      const err = await credentials()
        .access(never)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelError);
      expect(err).toMatchObject({ kind: 'auth', details: { retryable: false, providerCode: reason } });
      expect((err as Error).message).toContain('helix login codex');
      expect((await onDisk()).health).toMatchObject({ state: 'reconnect-required', reason });
      await expect(credentials().access(never)).rejects.toMatchObject({ kind: 'auth' });
      expect(auth.grants('refresh_token')).toHaveLength(1);
      expect(await codexAuthStatus(store, 'local')).toEqual({
        provider: 'codex-subscription',
        state: 'reconnect-required',
        reason,
        document_version: 2,
      });
    });
  }

  it('leaves health and tokens untouched on a transient refresh failure', async () => {
    await seed(-10);
    const before = await readFile(store.pathOf('local'), 'utf8');
    auth.scriptRefresh({ kind: 'error', status: 500, body: { error: 'server_error' } });
    await expect(credentials().access(never)).rejects.toMatchObject({
      kind: 'auth',
      details: { retryable: true, httpStatus: 500 },
    });
    expect(await readFile(store.pathOf('local'), 'utf8')).toBe(before);
    await credentials().access(never);
    expect((await onDisk()).health.state).toBe('ok');
  });

  it('refuses a redirect from the token endpoint and never reaches its target', async () => {
    await seed(-10);
    const before = await readFile(store.pathOf('local'), 'utf8');
    const elsewhere = await startHitCounter();
    try {
      auth.scriptRefresh({ kind: 'redirect', status: 307, location: elsewhere.url });
      await expect(credentials().access(never)).rejects.toMatchObject({ kind: 'auth' });
      expect(elsewhere.hits()).toBe(0);
      expect(await readFile(store.pathOf('local'), 'utf8')).toBe(before);
    } finally {
      await elsewhere.close();
    }
  });

  it('shares one refresh among 20 concurrent callers', async () => {
    await seed(-10);
    // Counting lock-taking mutations shows the callers shared one in-process flight, not just the file lock.
    let mutations = 0;
    const counting: CredentialDocumentStore = {
      read: (owner) => store.read(owner),
      mutate: (owner, fn) => {
        mutations++;
        return store.mutate(owner, fn);
      },
      delete: (owner) => store.delete(owner),
    };
    const source = credentials(undefined, counting);
    const results = await Promise.all(Array.from({ length: 20 }, () => source.access(new AbortController().signal)));
    expect(auth.grants('refresh_token')).toHaveLength(1);
    expect(mutations).toBe(1);
    expect(new Set(results.map((r) => r.accessToken)).size).toBe(1);
  });

  it('refreshes once when two processes (separate stores, one file) need it at the same time', async () => {
    await seed(-10);
    const other = new FileCredentialDocumentStore({ home });
    const [a, b] = await Promise.all([credentials().access(never), credentials(undefined, other).access(never)]);
    expect(auth.grants('refresh_token')).toHaveLength(1);
    expect(a.accessToken).toBe(b.accessToken);
  });

  it('after a 401 uses a token another process already refreshed, without refreshing again', async () => {
    const seeded = await seed(3600);
    const rejected = { accessToken: seeded.access_token, accountId: auth.accountId };
    const other = new FileCredentialDocumentStore({ home });
    const newer = await seed(3600, other);
    const access = await credentials().afterUnauthorized(rejected, never);
    expect(access.accessToken).toBe(newer.access_token);
    expect(auth.grants('refresh_token')).toHaveLength(0);
  });

  it('after a 401 on the stored token refreshes once, even though it looked fresh', async () => {
    const seeded = await seed(3600);
    const access = await credentials().afterUnauthorized(
      { accessToken: seeded.access_token, accountId: auth.accountId },
      never,
    );
    expect(access.accessToken).not.toBe(seeded.access_token);
    expect(auth.grants('refresh_token')).toHaveLength(1);
  });

  it('without a login says to run `helix login codex`', async () => {
    await expect(credentials().access(never)).rejects.toMatchObject({
      kind: 'auth',
      message: expect.stringContaining('helix login codex'),
    });
    expect(await codexAuthStatus(store, 'local')).toEqual({
      provider: 'codex-subscription',
      state: 'logged-out',
      document_version: null,
    });
  });

  it('reads a v1 document without rewriting it, and migrates it to v2 on the next refresh', async () => {
    await mkdir(join(home, 'codex'), { recursive: true });
    const fixture = new URL('../../../test/fixtures/codex-credentials/v1.json', import.meta.url);
    await copyFile(fixture, store.pathOf('local'));
    const original = await readFile(store.pathOf('local'), 'utf8');
    expect(await codexAuthStatus(store, 'local')).toEqual({
      provider: 'codex-subscription',
      state: 'logged-in',
      document_version: 1,
    });
    expect(await readFile(store.pathOf('local'), 'utf8')).toBe(original);

    const access = await credentials().access(never); // the fixture's token expired in 2024
    expect(auth.grants('refresh_token')[0]?.fields.refresh_token).toBe('rt_v1_fixture_refresh_token_0001');
    const doc = await onDisk();
    expect(doc.version).toBe(2);
    expect(doc.health.state).toBe('ok');
    expect(doc.tokens.access_token).toBe(access.accessToken);
    expect(await codexAuthStatus(store, 'local')).toMatchObject({ state: 'logged-in', document_version: 2 });
  });

  it('status carries no token, account id or expiry', async () => {
    const seeded = await seed(3600);
    const text = JSON.stringify(await codexAuthStatus(store, 'local'));
    for (const secret of [seeded.access_token, seeded.refresh_token, seeded.id_token, auth.accountId])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/expir|exp"|\d{10}/);
  });
});
