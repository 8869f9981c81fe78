import type { AccountDeps } from './deps.js';
import { issueOneTimeCode } from './oneTimeCode.js';

export const LINK_INTENT_TTL_MS = 15 * 60 * 1000;

/** A hashed, expiring, single-use intent to link one external identity to this account. */
export const issueLinkIntent = (deps: AccountDeps, accountId: string): Promise<string> =>
  issueOneTimeCode(deps, accountId, 'link_intent', LINK_INTENT_TTL_MS);
