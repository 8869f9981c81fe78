import {
  applyPolicyChange,
  effectivePolicy,
  NO_OVERRIDES,
  parseOverrides,
  serializeOverrides,
  type AccountPolicy,
  type AccountPolicyView,
  type PolicyChange,
} from '../../domain/accountPolicy.js';
import { UnknownAccountError } from './accountErrors.js';
import type { AccountDeps } from './deps.js';

/**
 * `helix accounts policy set`: applies a change to the account's explicit choices in one
 * transaction. Every path reads the policy afresh (src/accounts/accountPolicies.ts), so the change
 * applies to the very next request or turn.
 */
export const changeAccountPolicy = async (
  deps: AccountDeps,
  defaults: AccountPolicy,
  accountId: string,
  change: PolicyChange,
): Promise<AccountPolicyView> =>
  deps.store.transaction(async (uow) => {
    if ((await uow.accounts.get(accountId)) === undefined) throw new UnknownAccountError(accountId);
    const stored = await uow.accounts.getPolicyOverrides(accountId);
    // Unlike a read, a change starts from nothing when the stored row is unreadable: it replaces it.
    const current = stored === undefined ? NO_OVERRIDES : (parseOverrides(stored) ?? NO_OVERRIDES);
    const overrides = applyPolicyChange(current, change);
    await uow.accounts.setPolicyOverrides(accountId, serializeOverrides(overrides), deps.now());
    return { accountId, overrides, effective: effectivePolicy(defaults, overrides) };
  });
