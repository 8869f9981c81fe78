import { newSecret } from '../../accounts/secrets.js';
import { SIGN_IN_LINK_TTL_MS } from '../../accounts/sessions.js';
import { AccountInputError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';

/** `helix accounts login-link`: a single-use browser sign-in code (only its hash is stored). */
export const issueSignInLink = async (deps: AccountDeps, accountId: string): Promise<string> => {
  const account = await deps.store.read.accounts.get(accountId);
  if (account?.status !== 'active') throw new AccountInputError(`no active account ${accountId.slice(0, 80)}`);
  const code = newSecret();
  const now = deps.now();
  await deps.store.read.sessions.issueOneTime(code.hash, 'sign_in', accountId, now, now + SIGN_IN_LINK_TTL_MS);
  return code.value;
};
