import { randomBytes } from 'node:crypto';
import type { AccountRecord } from '../../store/port.js';
import { AccountInputError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';
import { hashNewPassword } from './newPassword.js';

/** `helix accounts create`: an active account, with a sign-in password only when one is given. */
export const createAccount = async (
  deps: AccountDeps,
  request: { readonly displayName: string; readonly password?: string },
): Promise<AccountRecord> => {
  const name = request.displayName.trim();
  if (name.length === 0 || name.length > 200) throw new AccountInputError('the account name must be 1-200 characters');
  const now = deps.now();
  const account: AccountRecord = {
    accountId: `acct_${randomBytes(12).toString('hex')}`,
    displayName: name,
    status: 'active',
    passwordHash: request.password === undefined ? null : await hashNewPassword(request.password),
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.read.accounts.insert(account);
  return account;
};
