import { endSession } from '../../accounts/sessions.js';
import type { AccountDeps } from './deps.js';

/** POST /account/sign-out: revokes the session server-side, so a copied cookie stops working too. */
export const signOut = async (deps: AccountDeps, sessionCookie: string | undefined): Promise<void> => {
  if (sessionCookie !== undefined) await endSession(deps.store, sessionCookie, deps.now());
};
