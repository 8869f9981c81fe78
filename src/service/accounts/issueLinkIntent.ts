import { newSecret } from '../../accounts/secrets.js';
import { AccountInputError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';

export const LINK_INTENT_TTL_MS = 15 * 60 * 1000;

/** A hashed, expiring, single-use intent to link one external identity to this account. */
export const issueLinkIntent = async (deps: AccountDeps, accountId: string): Promise<string> => {
  const account = await deps.store.read.accounts.get(accountId);
  if (account?.status !== 'active') throw new AccountInputError(`no active account ${accountId.slice(0, 80)}`);
  const intent = newSecret();
  const now = deps.now();
  await deps.store.read.sessions.issueOneTime(intent.hash, 'link_intent', accountId, now, now + LINK_INTENT_TTL_MS);
  return intent.value;
};
