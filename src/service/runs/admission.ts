import type { Principal } from '../../auth/principal.js';
import { admitsCapability, hasFeature, type AccountPolicy } from '../../domain/accountPolicy.js';
import { HelixError } from '../../domain/errors.js';
import { SCOPE_CATALOG } from '../../domain/scopeCatalog.js';

export interface Admission {
  readonly admittedCapabilities: ReadonlySet<string>;
  readonly requiredFamilies: readonly string[];
  /** Whether the account may use its own registered model providers this turn (feature `model_providers`). */
  readonly ownerModelProviders: boolean;
}

/** Check 4 of admission: the account's current policy, read afresh for every request (src/accounts/accountPolicies.ts). */
export interface PolicySource {
  forPrincipal(principal: Principal): Promise<AccountPolicy>;
}

/**
 * Logical data-scope admission: every requested scope must be enabled by the deployment, present
 * in the code-owned catalog, entitled by its OAuth data scope, and allowed by account policy.
 * Runs at start and again before every continuation, so revocation bites on the next turn.
 */
export interface ScopeAvailability {
  /** HELIX_AGENT_DATABASE_SCOPES. */
  readonly enabled: ReadonlySet<string>;
  /** Scopes whose sources are configured here (the capability registry's view). */
  readonly available: ReadonlySet<string>;
  /** Capability ids configured here: a scope admits only those of its catalog entry that exist. */
  readonly capabilities: ReadonlySet<string>;
}

export const admitScopes = async (
  requested: readonly string[],
  principal: Principal,
  scopes: ScopeAvailability,
  policies: PolicySource,
): Promise<Admission> => {
  const policy = await policies.forPrincipal(principal);
  const capabilities = new Set<string>();
  const families: string[] = [];
  for (const id of requested) {
    const entry = SCOPE_CATALOG.get(id);
    if (entry === undefined || !scopes.enabled.has(id)) throw new HelixError('scope_not_admitted', { scope: id });
    if (!scopes.available.has(id)) throw new HelixError('scope_unavailable', { scope: id });
    if (!principal.scopes.hasOAuth(entry.oauthScope)) {
      throw new HelixError('insufficient_scope', { scope: entry.oauthScope });
    }
    for (const capability of entry.capabilities.filter((c) => scopes.capabilities.has(c))) {
      if (!admitsCapability(policy, capability)) {
        throw new HelixError('scope_not_admitted', { scope: id });
      }
      capabilities.add(capability);
    }
    families.push(entry.requiredFamily);
  }
  return {
    admittedCapabilities: capabilities,
    requiredFamilies: families,
    ownerModelProviders: hasFeature(policy, 'model_providers'),
  };
};
