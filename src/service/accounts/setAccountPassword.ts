import { UnknownAccountError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';
import { hashNewPassword } from './newPassword.js';

/** `helix accounts set-password`: sets the sign-in password, or with an empty one turns password sign-in off. */
export const setAccountPassword = async (
  deps: AccountDeps,
  accountId: string,
  password: string,
): Promise<'set' | 'cleared'> => {
  const hash = password === '' ? null : await hashNewPassword(password);
  if (!(await deps.store.read.accounts.setPassword(accountId, hash, deps.now())))
    throw new UnknownAccountError(accountId);
  return hash === null ? 'cleared' : 'set';
};
