import { secretHash } from '../../accounts/secrets.js';
import { SESSION_SECRET_SHAPE } from '../../accounts/sessions.js';
import type { AccountDeps } from './deps.js';

/**
 * GET /account/sign-in?code=…: whose account a sign-in link is for, without spending it. Opening a
 * link only shows this confirmation; the same-origin form post spends the code (signInWithCode), so
 * a link another site opens in the victim's browser signs nobody in (login CSRF, OBS-18).
 */
export const previewSignInLink = async (
  deps: AccountDeps,
  code: string,
): Promise<{ readonly displayName: string } | undefined> => {
  if (!SESSION_SECRET_SHAPE.test(code)) return undefined;
  const accountId = await deps.store.read.sessions.findOneTime(secretHash(code), 'sign_in', deps.now());
  const account = accountId === undefined ? undefined : await deps.store.read.accounts.get(accountId);
  return account?.status === 'active' ? { displayName: account.displayName } : undefined;
};
