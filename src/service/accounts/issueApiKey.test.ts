import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyInputError, findActiveApiKey } from '../../auth/apiKeys.js';
import { openStore } from '../../store/openStore.js';
import type { Store } from '../../store/port.js';
import { createAccount } from './createAccount.js';
import type { AccountDeps } from './deps.js';
import { issueApiKey } from './issueApiKey.js';

// `helix keys create` warns when the key's account is no Helix account (such a key works only outside production).
describe('issueApiKey', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-keys-'));
  let store: Store;
  let deps: AccountDeps;

  beforeAll(async () => {
    store = await openStore(join(dir, 'helix.db'));
    deps = { store, instanceSecret: 'a'.repeat(64), now: () => 1_700_000_000_000 };
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('mints a key bound to a Helix account, stored only as its hash', async () => {
    const { accountId } = await createAccount(deps, { displayName: 'Alice' });
    const issued = await issueApiKey(deps, { tenantId: 'acme', accountId, scopes: ['helix.agent_runs.read'] });
    expect(issued.helixAccount).toBe(true);
    expect(issued.key).toMatch(/^hlx_/);
    expect(issued.record.keyHash).not.toContain(issued.key.slice(4));
    expect((await findActiveApiKey(store, issued.key))?.keyId).toBe(issued.record.keyId);
  });

  it('says when the account is no Helix account', async () => {
    const issued = await issueApiKey(deps, {
      tenantId: 'acme',
      accountId: 'dev-bot',
      scopes: ['helix.agent_runs.read'],
    });
    expect(issued.helixAccount).toBe(false);
  });

  it('refuses an unknown scope and stores nothing', async () => {
    const before = (await store.read.apiKeys.list()).length;
    await expect(
      issueApiKey(deps, { tenantId: 'acme', accountId: 'dev-bot', scopes: ['helix.everything'] }),
    ).rejects.toBeInstanceOf(ApiKeyInputError);
    expect(await store.read.apiKeys.list()).toHaveLength(before);
  });
});
