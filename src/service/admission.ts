import type { Principal } from '../auth/principal.js';
import { HelixError } from '../domain/errors.js';
import { SCOPE_CATALOG } from '../domain/scopeCatalog.js';

export interface Admission {
  readonly admittedCapabilities: ReadonlySet<string>;
  readonly requiredFamilies: readonly string[];
}

/** Check 4 of admission: the linked account's policy. Until accounts exist every capability passes. */
export interface AccountPolicy {
  allowsCapability(principal: Principal, capabilityId: string): Promise<boolean>;
}

export const allowAllPolicy: AccountPolicy = { allowsCapability: async () => true };

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
  policy: AccountPolicy,
): Promise<Admission> => {
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
      if (!(await policy.allowsCapability(principal, capability))) {
        throw new HelixError('scope_not_admitted', { scope: id });
      }
      capabilities.add(capability);
    }
    families.push(entry.requiredFamily);
  }
  return { admittedCapabilities: capabilities, requiredFamilies: families };
};
