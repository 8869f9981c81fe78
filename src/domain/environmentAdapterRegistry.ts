import { HelixError } from './errors.js';
import {
  ENVIRONMENT_ADAPTER_PROFILES,
  type EnvironmentAdapterProfile,
  profileContractHash,
} from './environmentAdapterProfiles.js';

/** A profile as the registry hands it out: with the contract hash sources and admissions record. */
export interface ResolvedAdapterProfile {
  readonly profile: EnvironmentAdapterProfile;
  readonly contractHash: string;
}

export interface EnvironmentAdapterRegistry {
  /** Every profile this deployment admits sources for (the fixture only when fixtures are on). */
  readonly enabledProfiles: () => readonly ResolvedAdapterProfile[];
  /**
   * ING-04, §22: `(domain_adapter, world_id)` → the one profile that accepts both, or
   * `environment_adapter_unknown` (no profile knows the adapter), `environment_adapter_disabled`
   * (a fixture profile without the fixture switch) or `environment_adapter_identity_mismatch`
   * (the world id is not one of the profile's worlds).
   */
  readonly resolve: (domainAdapter: string, worldId: string) => ResolvedAdapterProfile;
  /** The profile a stored source names, if it is still enabled; used to recheck a source's recorded hash. */
  readonly byId: (profileId: string) => ResolvedAdapterProfile | undefined;
}

export interface AdapterRegistryOptions {
  /** HELIX_ENVIRONMENT_ADAPTER_FIXTURES=1, refused in production by src/config.ts. */
  readonly fixturesEnabled: boolean;
  /** Tests may hand in their own profiles; the product always uses ENVIRONMENT_ADAPTER_PROFILES. */
  readonly profiles?: readonly EnvironmentAdapterProfile[];
}

const isEnabled = (profile: EnvironmentAdapterProfile, fixturesEnabled: boolean): boolean =>
  profile.lifecycle === 'enabled' || (profile.lifecycle === 'fixture_only' && fixturesEnabled);

export const createAdapterRegistry = (options: AdapterRegistryOptions): EnvironmentAdapterRegistry => {
  const resolved = (options.profiles ?? ENVIRONMENT_ADAPTER_PROFILES).map((profile) => ({
    profile,
    contractHash: profileContractHash(profile),
    enabled: isEnabled(profile, options.fixturesEnabled),
  }));
  const strip = ({ profile, contractHash }: (typeof resolved)[number]): ResolvedAdapterProfile => ({
    profile,
    contractHash,
  });
  return {
    enabledProfiles: () => resolved.filter((entry) => entry.enabled).map(strip),
    resolve: (domainAdapter, worldId) => {
      const entry = resolved.find(({ profile }) => profile.domain_adapters.includes(domainAdapter));
      if (entry === undefined) throw new HelixError('environment_adapter_unknown');
      if (!entry.enabled) throw new HelixError('environment_adapter_disabled');
      if (!entry.profile.world_id_prefixes.some((prefix) => worldIdHasPrefix(worldId, prefix))) {
        throw new HelixError('environment_adapter_identity_mismatch');
      }
      return strip(entry);
    },
    byId: (profileId) => {
      const entry = resolved.find(({ profile, enabled }) => enabled && profile.profile_id === profileId);
      return entry === undefined ? undefined : strip(entry);
    },
  };
};

/** `minecraft:` admits `minecraft:overworld`, never the bare prefix. */
const worldIdHasPrefix = (worldId: string, prefix: string): boolean =>
  worldId.length > prefix.length && worldId.startsWith(prefix);
