/**
 * Account policy: what a linked Helix account may use, beyond what its token's scopes say.
 * Admission check 4 (docs/spec/helix-agent-api-v1.md, "Logical data scopes") asks it about every capability a
 * run's logical scopes admit, at start and before every continuation, so a change bites on the
 * next turn; features gate whole surfaces. Pure data and decisions; storage lives in the store.
 */
export const ACCOUNT_FEATURES = [
  /** The Shared Live Room extension (rooms, bindings, sources, embodiment). */
  'shared_live_room',
  /** Developer privileges (in production they also need the developer OAuth scope). */
  'developer',
  /** Registering and using the account's own model providers (their calls leave this server). */
  'model_providers',
] as const;
export type AccountFeature = (typeof ACCOUNT_FEATURES)[number];

export const CAPABILITY_DECISIONS = ['admit', 'deny'] as const;
export type CapabilityDecision = (typeof CAPABILITY_DECISIONS)[number];

export interface AccountPolicy {
  readonly features: Readonly<Record<AccountFeature, boolean>>;
  /** The decision for a capability without an explicit entry. */
  readonly defaultCapability: CapabilityDecision;
  /** Exact capability id -> decision, overriding the default. */
  readonly capabilities: Readonly<Record<string, CapabilityDecision>>;
}

/** Capability ids are code-owned (`research-library.read_document`); this bounds what can be stored. */
export const CAPABILITY_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,119}$/;
export const MAX_CAPABILITY_ENTRIES = 200;

export const admitsCapability = (policy: AccountPolicy, capabilityId: string): boolean =>
  (Object.hasOwn(policy.capabilities, capabilityId) ? policy.capabilities[capabilityId] : policy.defaultCapability) ===
  'admit';

export const hasFeature = (policy: AccountPolicy, feature: AccountFeature): boolean => policy.features[feature];

export const featuresFrom = (enabled: readonly AccountFeature[]): Record<AccountFeature, boolean> =>
  Object.fromEntries(ACCOUNT_FEATURES.map((f) => [f, enabled.includes(f)])) as Record<AccountFeature, boolean>;

export class AccountPolicyError extends Error {
  override readonly name = 'AccountPolicyError';
}

const isFeature = (value: string): value is AccountFeature => (ACCOUNT_FEATURES as readonly string[]).includes(value);
const isDecision = (value: unknown): value is CapabilityDecision =>
  typeof value === 'string' && (CAPABILITY_DECISIONS as readonly string[]).includes(value);

/**
 * What is stored per account: only the operator's explicit choices. Everything else follows the
 * deployment default (HELIX_ACCOUNT_DEFAULT_FEATURES / _CAPABILITIES), so changing the default
 * moves every account that was not set by hand.
 */
export interface PolicyOverrides {
  readonly features: Readonly<Partial<Record<AccountFeature, boolean>>>;
  readonly defaultCapability?: CapabilityDecision;
  readonly capabilities: Readonly<Record<string, CapabilityDecision>>;
}

export const NO_OVERRIDES: PolicyOverrides = { features: {}, capabilities: {} };

/** An account's policy as an operator sees it: what was set by hand, and what applies now. */
export interface AccountPolicyView {
  readonly accountId: string;
  /** What the operator set for this account. */
  readonly overrides: PolicyOverrides;
  /** What applies now: the overrides over the deployment default. */
  readonly effective: AccountPolicy;
}

/** A change an operator asks for; `null` removes an explicit choice so the default applies again. */
export interface PolicyChange {
  readonly features?: Readonly<Partial<Record<AccountFeature, boolean | null>>>;
  readonly defaultCapability?: CapabilityDecision | null;
  readonly capabilities?: Readonly<Record<string, CapabilityDecision | null>>;
}

export const effectivePolicy = (defaults: AccountPolicy, overrides: PolicyOverrides): AccountPolicy => ({
  features: { ...defaults.features, ...overrides.features },
  defaultCapability: overrides.defaultCapability ?? defaults.defaultCapability,
  capabilities: { ...defaults.capabilities, ...overrides.capabilities },
});

const withChanges = <V>(
  current: Readonly<Record<string, V>>,
  changes: Readonly<Record<string, V | null | undefined>>,
): Record<string, V> => {
  const next: Record<string, V> = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete next[name];
    else if (value !== undefined) next[name] = value;
  }
  return next;
};

export const applyPolicyChange = (overrides: PolicyOverrides, change: PolicyChange): PolicyOverrides => {
  for (const id of Object.keys(change.capabilities ?? {})) {
    if (!CAPABILITY_ID_PATTERN.test(id)) throw new AccountPolicyError(`not a capability id: ${id.slice(0, 80)}`);
  }
  const capabilities = withChanges(overrides.capabilities, change.capabilities ?? {});
  if (Object.keys(capabilities).length > MAX_CAPABILITY_ENTRIES)
    throw new AccountPolicyError(`at most ${MAX_CAPABILITY_ENTRIES} capability entries`);
  const defaultCapability =
    change.defaultCapability === undefined ? overrides.defaultCapability : change.defaultCapability;
  return {
    features: withChanges<boolean>(overrides.features, change.features ?? {}),
    ...(defaultCapability === null || defaultCapability === undefined ? {} : { defaultCapability }),
    capabilities,
  };
};

/** Every feature off and every capability denied: what an unreadable stored policy means. */
export const DENY_ALL: AccountPolicy = { features: featuresFrom([]), defaultCapability: 'deny', capabilities: {} };

/**
 * Reads stored overrides. Anything unreadable fails closed (undefined: the caller applies
 * DENY_ALL), so a corrupted row can never widen access; unknown feature names are ignored.
 */
export const parseOverrides = (json: string): PolicyOverrides | undefined => {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { features = {}, default_capability: defaultCapability, capabilities = {} } = raw as Record<string, unknown>;
  if (typeof features !== 'object' || features === null || typeof capabilities !== 'object' || capabilities === null)
    return undefined;
  if (defaultCapability !== undefined && !isDecision(defaultCapability)) return undefined;
  const parsedFeatures: Partial<Record<AccountFeature, boolean>> = {};
  for (const [name, on] of Object.entries(features)) {
    if (typeof on !== 'boolean') return undefined;
    if (isFeature(name)) parsedFeatures[name] = on;
  }
  const parsedCapabilities: Record<string, CapabilityDecision> = {};
  for (const [id, decision] of Object.entries(capabilities)) {
    if (!CAPABILITY_ID_PATTERN.test(id) || !isDecision(decision)) return undefined;
    parsedCapabilities[id] = decision;
  }
  return {
    features: parsedFeatures,
    ...(defaultCapability === undefined ? {} : { defaultCapability }),
    capabilities: parsedCapabilities,
  };
};

export const serializeOverrides = (overrides: PolicyOverrides): string =>
  JSON.stringify({
    features: overrides.features,
    default_capability: overrides.defaultCapability,
    capabilities: overrides.capabilities,
  });

export const parseFeatureName = (value: string): AccountFeature => {
  if (!isFeature(value))
    throw new AccountPolicyError(`unknown feature ${value.slice(0, 40)}; known: ${ACCOUNT_FEATURES.join(', ')}`);
  return value;
};

export const parseDecision = (value: string): CapabilityDecision => {
  if (!isDecision(value))
    throw new AccountPolicyError(`a capability decision is admit or deny, not ${value.slice(0, 40)}`);
  return value;
};
