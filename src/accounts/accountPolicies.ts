import type { Principal } from '../auth/principal.js';
import {
  applyPolicyChange,
  DENY_ALL,
  effectivePolicy,
  NO_OVERRIDES,
  parseOverrides,
  serializeOverrides,
  type AccountPolicy,
  type PolicyChange,
  type PolicyOverrides,
} from '../domain/accountPolicy.js';
import type { Store } from '../store/port.js';

export class UnknownAccountError extends Error {
  override readonly name = 'UnknownAccountError';
}

export interface AccountPolicyView {
  readonly accountId: string;
  /** What the operator set for this account. */
  readonly overrides: PolicyOverrides;
  /** What applies now: the overrides over the deployment default. */
  readonly effective: AccountPolicy;
}

/**
 * Where every path asks what an account may do. The store holds each account's explicit choices;
 * the deployment default fills in the rest. A principal whose account is no Helix account (a dev
 * key outside production) gets the default. Read on every request, never cached, so a change
 * applies to the very next request or turn.
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

  async change(accountId: string, change: PolicyChange, now: number): Promise<AccountPolicyView> {
    return this.store.transaction(async (uow) => {
      if ((await uow.accounts.get(accountId)) === undefined)
        throw new UnknownAccountError(`no account ${accountId.slice(0, 80)}`);
      const stored = await uow.accounts.getPolicyOverrides(accountId);
      const current = stored === undefined ? NO_OVERRIDES : (parseOverrides(stored) ?? NO_OVERRIDES);
      const overrides = applyPolicyChange(current, change);
      await uow.accounts.setPolicyOverrides(accountId, serializeOverrides(overrides), now);
      return { accountId, overrides, effective: effectivePolicy(this.defaults, overrides) };
    });
  }
}
