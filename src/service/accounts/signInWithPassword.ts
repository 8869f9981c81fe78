import { verifyPassword } from '../../accounts/secrets.js';
import { startRotatedSession, type StartedSession } from '../../accounts/sessions.js';
import type { AccountDeps } from './deps.js';

const ACCOUNT_ID = /^acct_[0-9a-f]{24}$/;

/**
 * POST /account/sign-in: an active account with a password set, and the password matches. Every
 * failure is the same `undefined`, so the page cannot tell which part was wrong.
 */
export const signInWithPassword = async (
  deps: AccountDeps,
  credentials: { readonly accountId: string; readonly password: string },
  previousCookie: string | undefined,
): Promise<StartedSession | undefined> => {
  const record = ACCOUNT_ID.test(credentials.accountId)
    ? await deps.store.read.accounts.get(credentials.accountId)
    : undefined;
  const ok =
    record?.status === 'active' &&
    record.passwordHash !== null &&
    (await verifyPassword(credentials.password, record.passwordHash));
  if (!ok) return undefined;
  return startRotatedSession(deps.store, record.accountId, previousCookie, deps.now());
};
