import type { Store } from '../store/port.js';
import type { Capability } from './capability.js';
import { libraryCapabilities } from './library/capabilities.js';
import { CapabilityRegistry } from './registry.js';

export interface SourcesConfig {
  readonly repositoryRoots: readonly string[];
  readonly searchUrl: string | undefined;
  readonly scholarly: { readonly openAlexUrl?: string; readonly crossrefUrl?: string; readonly arxivUrl?: string; readonly mailto?: string };
}

/**
 * The capabilities this deployment offers. The research library lives in the store and is always
 * there; every other source is off until its configuration names where it is.
 */
export const configuredCapabilities = (store: Store, _config: SourcesConfig): Capability[] => [...libraryCapabilities(store)];

export const buildRegistry = (store: Store, config: SourcesConfig): CapabilityRegistry =>
  new CapabilityRegistry(configuredCapabilities(store, config));
