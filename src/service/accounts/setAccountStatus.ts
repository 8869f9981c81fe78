import type { AccountStatus } from '../../store/port.js';
import { UnknownAccountError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';

/**
 * `helix accounts disable|enable`. Takes effect on the next request: bindings, keys and sessions
 * re-read the account's status every time they are used.
 *
 * Disabling also ends, for good and in the same transaction, everything a browser session holds or
 * could still start: every session, every unused sign-in link and link intent, and every chat
 * claim handle nobody has claimed yet. So `enable` revives none of them (issue 27 item 11); a
 * person signs in again. `hlx_` keys and agent bindings are only suspended, and admit again after
 * `enable`: they are standing credentials the operator revokes on their own (docs/auth.md).
 */
export const setAccountStatus = async (deps: AccountDeps, accountId: string, status: AccountStatus): Promise<void> => {
  const now = deps.now();
  const found = await deps.store.transaction(async (uow) => {
    if (!(await uow.accounts.setStatus(accountId, status, now))) return false;
    if (status === 'disabled') {
      await uow.sessions.revokeAllForAccount(accountId, now);
      await uow.chats.revokePendingClaims(accountId, now);
    }
    return true;
  });
  if (!found) throw new UnknownAccountError(accountId);
};
