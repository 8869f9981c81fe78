import type { Principal } from '../auth/principal.js';
import {
  DENY_ALL,
  effectivePolicy,
  NO_OVERRIDES,
  parseOverrides,
  type AccountPolicy,
  type AccountPolicyView,
} from '../domain/accountPolicy.js';
import type { Store } from '../store/port.js';

/**
 * Where every path asks what an account may do. The store holds each account's explicit choices;
 * the deployment default fills in the rest. A principal whose account is no Helix account (a dev
 * key outside production) gets the default. Read on every request, never cached, so a change
 * (src/service/accounts/changeAccountPolicy.ts) applies to the very next request or turn.
 */
export class AccountPolicies {
  constructor(
    private readonly store: Store,
    /** HELIX_ACCOUNT_DEFAULT_FEATURES / HELIX_ACCOUNT_DEFAULT_CAPABILITIES. */
    readonly defaults: AccountPolicy,
  ) {}

  async forPrincipal(principal: Principal): Promise<AccountPolicy> {
    return principal.linkedAccount ? this.forAccount(principal.accountId) : this.defaults;
  }

  async forAccount(accountId: string): Promise<AccountPolicy> {
    return (await this.view(accountId)).effective;
  }

  async view(accountId: string): Promise<AccountPolicyView> {
    const stored = await this.store.read.accounts.getPolicyOverrides(accountId);
    if (stored === undefined) return { accountId, overrides: NO_OVERRIDES, effective: this.defaults };
    const overrides = parseOverrides(stored);
    // An unreadable row fails closed: it can only ever narrow what the account may do.
    return overrides === undefined
      ? { accountId, overrides: NO_OVERRIDES, effective: DENY_ALL }
      : { accountId, overrides, effective: effectivePolicy(this.defaults, overrides) };
  }
}
