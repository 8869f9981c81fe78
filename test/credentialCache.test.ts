import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { openStore } from '../src/store/openStore.js';
import type { Store } from '../src/store/port.js';
import { api, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const sqlite = storeFlavours().find((f) => f.name === 'sqlite')!;
const SCOPES = ['helix.agent_runs.read', 'helix.agent_runs.write'];

const newKey = async (store: Store, accountId = 'acct-cache') =>
  createApiKey(store, { tenantId: 't', accountId, scopes: SCOPES }, Date.now());

/** `helix keys revoke` from a shell: its own connection to the file, nothing said to the server. */
const revokeFromAnotherProcess = async (location: string, keyId: string): Promise<void> => {
  const cli = await openStore(location);
  try {
    await cli.read.apiKeys.revoke(keyId, Date.now());
  } finally {
    await cli.close();
  }
};

/** Issue 19: verified `hlx_` keys are cached, and revocation still takes effect. */
describe('revocation with the verified-credential cache (SQLite)', () => {
  let h: TestHelix | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("a key revoked through the server's store is refused on the next request, however long the cache would hold it", async () => {
    h = await startTestHelix(sqlite, { env: { HELIX_CREDENTIAL_CACHE_SECONDS: '300' } });
    const { key, record } = await newKey(h.testStore.store);
    expect((await api(h.url, 'GET', RUNS, { token: key })).status).toBe(200);
    expect((await api(h.url, 'GET', RUNS, { token: key })).status).toBe(200);
    expect(await h.testStore.store.read.apiKeys.revoke(record.keyId, Date.now())).toBe(true);
    const refused = await api(h.url, 'GET', RUNS, { token: key });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('invalid_token');
  });

  it("a disabled account's cached key stops working at once, and works again when it is enabled", async () => {
    h = await startTestHelix(sqlite, { env: { HELIX_CREDENTIAL_CACHE_SECONDS: '300' } });
    const store = h.testStore.store;
    const now = Date.now();
    await store.read.accounts.insert({
      accountId: 'acct-linked',
      displayName: 'Linked',
      status: 'active',
      passwordHash: null,
      createdAt: now,
      updatedAt: now,
    });
    const { key } = await newKey(store, 'acct-linked');
    expect((await api(h.url, 'GET', RUNS, { token: key })).status).toBe(200);
    await store.read.accounts.setStatus('acct-linked', 'disabled', Date.now());
    const refused = await api(h.url, 'GET', RUNS, { token: key });
    expect([refused.status, refused.body.code]).toEqual([403, 'account_not_linked']);
    await store.read.accounts.setStatus('acct-linked', 'active', Date.now());
    expect((await api(h.url, 'GET', RUNS, { token: key })).status).toBe(200);
  });

  it('a key revoked by another process on the same SQLite file (`helix keys revoke`) is refused on the next request', async () => {
    h = await startTestHelix(sqlite, { env: { HELIX_CREDENTIAL_CACHE_SECONDS: '300' } });
    const { key, record } = await newKey(h.testStore.store);
    const other = await newKey(h.testStore.store, 'acct-other');
    for (const token of [key, key, other.key]) expect((await api(h.url, 'GET', RUNS, { token })).status).toBe(200);
    await revokeFromAnotherProcess(h.testStore.location!, record.keyId);
    expect((await api(h.url, 'GET', RUNS, { token: key })).status).toBe(401);
    // The other key was dropped from the cache with it, and is verified again from the store.
    expect((await api(h.url, 'GET', RUNS, { token: other.key })).status).toBe(200);
  });

  it('HELIX_CREDENTIAL_CACHE_SECONDS=0 reads the key on every request', async () => {
    h = await startTestHelix(sqlite, { env: { HELIX_CREDENTIAL_CACHE_SECONDS: '0' } });
    const { key, record } = await newKey(h.testStore.store);
    expect((await api(h.url, 'GET', RUNS, { token: key })).status).toBe(200);
    await revokeFromAnotherProcess(h.testStore.location!, record.keyId);
    expect((await api(h.url, 'GET', RUNS, { token: key })).status).toBe(401);
  });
});
