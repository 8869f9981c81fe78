import type { Store } from '../store/port.js';
import type { Capability } from './capability.js';
import { libraryCapabilities } from './library/capabilities.js';
import type { HybridRanking } from './library/hybridSearch.js';
import { CapabilityRegistry } from './registry.js';
import { repositoryCapabilities } from './repository/repositoryCapabilities.js';
import type { AccountPolicyReader } from './room/boundRoomLane.js';
import { roomCapabilities, type BoundRoomConfig } from './room/roomCapabilities.js';
import { scholarlyCapabilities } from './scholarly/scholarlyCapabilities.js';
import { publicWebCapabilities } from './web/publicWebCapabilities.js';

export interface SourcesConfig {
  readonly repositoryRoots: readonly string[];
  readonly boundRoom: BoundRoomConfig;
  readonly searchUrl: string | undefined;
  readonly scholarly: {
    readonly openAlexUrl?: string;
    readonly crossrefUrl?: string;
    readonly arxivUrl?: string;
    readonly mailto?: string;
  };
}

/**
 * The capabilities this deployment offers. The research library and the bound room lane live in
 * the store and are always there; every other source is off until its configuration names where it is.
 */
export const configuredCapabilities = (
  store: Store,
  policies: AccountPolicyReader,
  config: SourcesConfig,
  hybrid?: HybridRanking,
): Capability[] => [
  ...libraryCapabilities(store, hybrid),
  ...roomCapabilities(store, policies, config.boundRoom),
  ...(config.repositoryRoots.length > 0 ? repositoryCapabilities({ roots: config.repositoryRoots }) : []),
  ...(config.searchUrl !== undefined ? publicWebCapabilities({ searchUrl: config.searchUrl }) : []),
  // Returns nothing unless a bibliographic endpoint is configured.
  ...scholarlyCapabilities(config.scholarly),
];

/** Source factories reject bad settings with a TypeError naming the setting; start-up reports it as configuration. */
/** Throws TypeError for a configuration the registry refuses (a duplicate capability id); start-up reports it. */
export const buildRegistry = (
  store: Store,
  policies: AccountPolicyReader,
  config: SourcesConfig,
  hybrid?: HybridRanking,
): CapabilityRegistry => new CapabilityRegistry(configuredCapabilities(store, policies, config, hybrid));
