import { secretHash } from '../../accounts/secrets.js';
import { SESSION_SECRET_SHAPE, startRotatedSession, type StartedSession } from '../../accounts/sessions.js';
import type { AccountDeps } from './deps.js';

/** POST /account/sign-in with a link's `code` (the confirmation page's form): consumes it once and starts a session. */
export const signInWithCode = async (
  deps: AccountDeps,
  code: string,
  previousCookie: string | undefined,
): Promise<StartedSession | undefined> => {
  if (!SESSION_SECRET_SHAPE.test(code)) return undefined;
  const now = deps.now();
  const accountId = await deps.store.transaction((uow) =>
    uow.sessions.consumeOneTime(secretHash(code), 'sign_in', now),
  );
  return accountId === undefined ? undefined : startRotatedSession(deps.store, accountId, previousCookie, now);
};
