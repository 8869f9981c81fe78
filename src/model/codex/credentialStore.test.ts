import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentFromLogin, type CredentialDocument } from './credentialDocument.js';
import { FileCredentialDocumentStore, helixHomeFromEnv } from './credentialStore.js';

const doc = (refreshToken: string): CredentialDocument =>
  documentFromLogin(
    { idToken: 'id.x.y', accessToken: 'ac.x.y', refreshToken, expiresAt: 10_000, accountId: 'acct_1' },
    1_000,
  );

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'helix-codex-store-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('the filesystem credential store', () => {
  it('keeps the document private: directory 0700, file 0600, no temp files left', async () => {
    const store = new FileCredentialDocumentStore({ home });
    await store.mutate('local', async () => ({ next: doc('rt-1'), result: undefined }));
    expect((await stat(join(home, 'codex'))).mode & 0o777).toBe(0o700);
    expect((await stat(store.pathOf('local'))).mode & 0o777).toBe(0o600);
    expect(await readdir(join(home, 'codex'))).toEqual(['local.json']);
    expect((await store.read('local'))?.refreshToken).toBe('rt-1');
  });

  it('writes nothing when the mutation throws or decides not to', async () => {
    const store = new FileCredentialDocumentStore({ home });
    await store.mutate('local', async () => ({ next: doc('rt-1'), result: undefined }));
    await expect(store.mutate('local', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await store.mutate('local', async (current) => ({ result: current?.refreshToken }))).toBe('rt-1');
    expect((await store.read('local'))?.refreshToken).toBe('rt-1');
  });

  it('serializes mutations across store instances (the lock is a file), so no rotation is lost', async () => {
    const a = new FileCredentialDocumentStore({ home });
    const b = new FileCredentialDocumentStore({ home });
    await a.mutate('local', async () => ({ next: doc('rt-0'), result: undefined }));
    // Each mutation appends to the refresh token; an unserialized read-modify-write would lose some.
    const append = (store: FileCredentialDocumentStore, n: number) =>
      store.mutate('local', async (current) => {
        await new Promise((resolve) => setImmediate(resolve));
        return { next: doc(`${current!.refreshToken}+${n}`), result: undefined };
      });
    await Promise.all(Array.from({ length: 10 }, (_, n) => append(n % 2 === 0 ? a : b, n)));
    const final = (await a.read('local'))!.refreshToken.split('+');
    expect(final).toHaveLength(11);
    expect(await readdir(join(home, 'codex'))).toEqual(['local.json']);
  });

  it('takes over a lock left by a crashed process once it is stale, and waits for a live one', async () => {
    const store = new FileCredentialDocumentStore({ home, staleLockMs: 5_000, lockWaitMs: 300 });
    await store.mutate('local', async () => ({ next: doc('rt-1'), result: undefined }));
    const lock = `${store.pathOf('local')}.lock`;
    await writeFile(lock, '99999\n');
    await expect(store.mutate('local', async () => ({ result: 'ran' }))).rejects.toMatchObject({
      code: 'lock_timeout',
    });
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await store.mutate('local', async () => ({ result: 'ran' }))).toBe('ran');
  });

  it('reads a missing document as none, an unreadable one as an error, and lets a mutation replace it', async () => {
    const store = new FileCredentialDocumentStore({ home });
    expect(await store.read('local')).toBeUndefined();
    await store.mutate('local', async () => ({ next: doc('rt-1'), result: undefined }));
    await writeFile(store.pathOf('local'), '{"version": 99}');
    await expect(store.read('local')).rejects.toMatchObject({ code: 'document_unreadable' });
    expect(await store.mutate('local', async (current) => ({ next: doc('rt-new'), result: current }))).toBeUndefined();
    expect(JSON.parse(await readFile(store.pathOf('local'), 'utf8'))).toMatchObject({
      version: 2,
      tokens: { refresh_token: 'rt-new' },
    });
  });

  it('deletes and says whether a document existed', async () => {
    const store = new FileCredentialDocumentStore({ home });
    await store.mutate('local', async () => ({ next: doc('rt-1'), result: undefined }));
    expect(await store.delete('local')).toBe(true);
    expect(await store.delete('local')).toBe(false);
    expect(await store.read('local')).toBeUndefined();
  });

  it('refuses owner keys that are not safe file names', async () => {
    const store = new FileCredentialDocumentStore({ home });
    for (const owner of ['', '../etc', 'a/b', '.hidden', 'a..b', 'x'.repeat(129)]) {
      await expect(store.read(owner)).rejects.toMatchObject({ code: 'invalid_owner' });
    }
  });

  it('lives under $HELIX_HOME, else ~/.helix', () => {
    expect(helixHomeFromEnv({ HELIX_HOME: '/srv/helix' })).toBe('/srv/helix');
    expect(helixHomeFromEnv({})).toMatch(/\.helix$/);
  });
});
