import type { AccountStatus } from '../../store/port.js';
import { UnknownAccountError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';

/**
 * `helix accounts disable|enable`. Takes effect on the next request: bindings, keys and sessions
 * re-read the account's status every time they are used.
 */
export const setAccountStatus = async (deps: AccountDeps, accountId: string, status: AccountStatus): Promise<void> => {
  if (!(await deps.store.read.accounts.setStatus(accountId, status, deps.now())))
    throw new UnknownAccountError(accountId);
};
