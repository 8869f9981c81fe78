import { newSecret } from '../../accounts/secrets.js';
import type { OneTimePurpose } from '../../store/port.js';
import { AccountInputError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';

/**
 * A single-use, expiring secret for an active account: only its hash is stored, with its purpose,
 * so a sign-in code cannot be spent as a link intent or the other way round.
 */
export const issueOneTimeCode = async (
  deps: AccountDeps,
  accountId: string,
  purpose: OneTimePurpose,
  ttlMs: number,
): Promise<string> => {
  const account = await deps.store.read.accounts.get(accountId);
  if (account?.status !== 'active') throw new AccountInputError(`no active account ${accountId.slice(0, 80)}`);
  const code = newSecret();
  const now = deps.now();
  await deps.store.read.sessions.issueOneTime(code.hash, purpose, accountId, now, now + ttlMs);
  return code.value;
};
