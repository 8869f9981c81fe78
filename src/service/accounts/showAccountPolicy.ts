import { AccountPolicies } from '../../accounts/accountPolicies.js';
import type { AccountPolicy, AccountPolicyView } from '../../domain/accountPolicy.js';
import { UnknownAccountError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';

/** `helix accounts policy show`: the effective policy and which entries the operator set. */
export const showAccountPolicy = async (
  deps: AccountDeps,
  defaults: AccountPolicy,
  accountId: string,
): Promise<AccountPolicyView> => {
  if ((await deps.store.read.accounts.get(accountId)) === undefined) throw new UnknownAccountError(accountId);
  return new AccountPolicies(deps.store, defaults).view(accountId);
};
