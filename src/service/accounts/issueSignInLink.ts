import { SIGN_IN_LINK_TTL_MS } from '../../accounts/sessions.js';
import type { AccountDeps } from './deps.js';
import { issueOneTimeCode } from './oneTimeCode.js';

/** `helix accounts login-link`: a single-use browser sign-in code (only its hash is stored). */
export const issueSignInLink = (deps: AccountDeps, accountId: string): Promise<string> =>
  issueOneTimeCode(deps, accountId, 'sign_in', SIGN_IN_LINK_TTL_MS);
