import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../accounts/secrets.js';
import { openStore } from '../../store/openStore.js';
import type { Store } from '../../store/port.js';
import { AccountInputError, UnknownAccountError } from './accountErrors.js';
import { createAccount } from './createAccount.js';
import type { AccountDeps } from './deps.js';
import { setAccountPassword } from './setAccountPassword.js';

// `helix accounts set-password` has no end-to-end test of its own: its rules are pinned here, on a real SQLite file.
describe('setAccountPassword', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-password-'));
  let store: Store;
  let deps: AccountDeps;
  let accountId: string;
  const storedHash = async () => (await store.read.accounts.get(accountId))?.passwordHash;

  beforeAll(async () => {
    store = await openStore(join(dir, 'helix.db'));
    deps = { store, instanceSecret: 'a'.repeat(64), now: () => 1_700_000_000_000 };
    accountId = (await createAccount(deps, { displayName: 'Alice' })).accountId;
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a scrypt hash that verifies the password, never the password', async () => {
    expect(await setAccountPassword(deps, accountId, 'correct horse battery staple')).toBe('set');
    const hash = await storedHash();
    expect(hash).toMatch(/^scrypt\$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery staple', hash ?? '')).toBe(true);
  });

  it('an empty password turns password sign-in off', async () => {
    expect(await setAccountPassword(deps, accountId, '')).toBe('cleared');
    expect(await storedHash()).toBeNull();
  });

  it('refuses a password outside 12-1024 characters and keeps the stored one', async () => {
    await setAccountPassword(deps, accountId, 'a long enough password');
    const before = await storedHash();
    for (const password of ['too short', 'x'.repeat(1025)]) {
      await expect(setAccountPassword(deps, accountId, password)).rejects.toBeInstanceOf(AccountInputError);
    }
    expect(await storedHash()).toBe(before);
  });

  it('names an unknown account', async () => {
    await expect(setAccountPassword(deps, 'acct_000000000000000000000000', 'a long enough password')).rejects.toEqual(
      new UnknownAccountError('acct_000000000000000000000000'),
    );
  });
});
