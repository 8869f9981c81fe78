import type { Store } from '../store/port.js';
import { AccountInputError } from './accountService.js';
import { newSecret, secretHash } from './secrets.js';

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
export const SESSION_COOKIE = 'helix_session';

export const issueSignInLink = async (store: Store, accountId: string, now: number): Promise<string> => {
  const account = await store.read.accounts.get(accountId);
  if (account?.status !== 'active') throw new AccountInputError(`no active account ${accountId.slice(0, 80)}`);
  const code = newSecret();
  await store.read.sessions.issueOneTime(code.hash, 'sign_in', accountId, now, now + SIGN_IN_LINK_TTL_MS);
  return code.value;
};

/** Starts a session: the cookie value is returned once; only its hash is stored, with a server-side expiry. */
export const startSession = async (
  store: Store,
  accountId: string,
  now: number,
): Promise<{ cookie: string; expiresAt: number }> => {
  const session = newSecret();
  const expiresAt = now + SESSION_TTL_MS;
  await store.read.sessions.insert({
    sessionHash: session.hash,
    accountId,
    createdAt: now,
    expiresAt,
    revokedAt: null,
  });
  return { cookie: session.value, expiresAt };
};

/** Consumes a sign-in code once and starts a session for its account. */
export const signInWithCode = async (
  store: Store,
  code: string,
  now: number,
): Promise<{ cookie: string; expiresAt: number } | undefined> => {
  if (!/^[A-Za-z0-9_-]{43}$/.test(code)) return undefined;
  const accountId = await store.transaction((uow) => uow.sessions.consumeOneTime(secretHash(code), 'sign_in', now));
  return accountId === undefined ? undefined : startSession(store, accountId, now);
};

/** The account behind a session cookie, re-resolved on every request: unexpired, unrevoked, account active. */
export const resolveSession = async (
  store: Store,
  cookie: string | undefined,
  now: number,
): Promise<string | undefined> => {
  if (cookie === undefined || !/^[A-Za-z0-9_-]{43}$/.test(cookie)) return undefined;
  const session = await store.read.sessions.get(secretHash(cookie));
  if (session === undefined || session.revokedAt !== null || session.expiresAt <= now) return undefined;
  const account = await store.read.accounts.get(session.accountId);
  return account?.status === 'active' ? account.accountId : undefined;
};

export const endSession = (store: Store, cookie: string, now: number): Promise<void> =>
  store.read.sessions.revoke(secretHash(cookie), now);
