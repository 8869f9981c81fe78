import { resolveSession } from '../../accounts/sessions.js';
import { HelixError } from '../../domain/errors.js';
import type { AccountDeps } from './deps.js';

/** The signed-in account of a browser, or `session_required`; re-resolved on every request. */
export const requireSessionAccount = async (deps: AccountDeps, sessionCookie: string | undefined): Promise<string> => {
  const accountId = await resolveSession(deps.store, sessionCookie, deps.now());
  if (accountId === undefined) throw new HelixError('session_required');
  return accountId;
};

/** GET /account: who is signed in, if anyone (the page shows the sign-in form otherwise). */
export const currentAccount = async (
  deps: AccountDeps,
  sessionCookie: string | undefined,
): Promise<{ readonly accountId: string; readonly displayName: string } | undefined> => {
  const accountId = await resolveSession(deps.store, sessionCookie, deps.now());
  if (accountId === undefined) return undefined;
  const account = await deps.store.read.accounts.get(accountId);
  return { accountId, displayName: account?.displayName ?? accountId };
};
