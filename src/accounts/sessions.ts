import type { Store } from '../store/port.js';
import { newSecret, secretHash } from './secrets.js';

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
export const SESSION_COOKIE = 'helix_session';

/** Session cookies and sign-in codes are 256-bit base64url secrets (src/accounts/secrets.ts). */
export const SESSION_SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface StartedSession {
  /** The cookie value, returned once; only its hash is stored. */
  readonly cookie: string;
  readonly expiresAt: number;
}

/** Starts a session: the cookie value is returned once; only its hash is stored, with a server-side expiry. */
export const startSession = async (store: Store, accountId: string, now: number): Promise<StartedSession> => {
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

/** Rotation: signing in always ends the browser's previous session and issues a new cookie, never a reused one. */
export const startRotatedSession = async (
  store: Store,
  accountId: string,
  previousCookie: string | undefined,
  now: number,
): Promise<StartedSession> => {
  const session = await startSession(store, accountId, now);
  if (previousCookie !== undefined) await endSession(store, previousCookie, now);
  return session;
};

/** The account behind a session cookie, re-resolved on every request: unexpired, unrevoked, account active. */
export const resolveSession = async (
  store: Store,
  cookie: string | undefined,
  now: number,
): Promise<string | undefined> => {
  if (cookie === undefined || !SESSION_SECRET_SHAPE.test(cookie)) return undefined;
  const session = await store.read.sessions.get(secretHash(cookie));
  if (session === undefined || session.revokedAt !== null || session.expiresAt <= now) return undefined;
  const account = await store.read.accounts.get(session.accountId);
  return account?.status === 'active' ? account.accountId : undefined;
};

export const endSession = (store: Store, cookie: string, now: number): Promise<void> =>
  store.read.sessions.revoke(secretHash(cookie), now);
