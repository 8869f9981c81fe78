import { createAdapterRegistry } from '../../domain/environmentAdapterRegistry.js';
import type { Store } from '../../store/port.js';
import type { Capability } from '../capability.js';
import { type AccountPolicyReader, PROBE_WAIT, type ProbeWait } from './boundRoomLane.js';
import { inventoryProbeCapability } from './inventoryProbeCapability.js';
import { roomEvidenceCapability } from './roomEvidenceCapability.js';

export interface BoundRoomConfig {
  /** HELIX_BOUND_ROOM_EVIDENCE_MAX_AGE_MS. */
  readonly maxAgeMs: number;
  /** HELIX_ENVIRONMENT_ADAPTER_FIXTURES: the registry admissions are rechecked against. */
  readonly adapterFixtures: boolean;
}

/**
 * The bound room lane (BRE-01, PRB-01): rooms live in the store, so both capabilities are always
 * configured; HELIX_AGENT_DATABASE_SCOPES decides whether a run may use them.
 */
export const roomCapabilities = (
  store: Store,
  policies: AccountPolicyReader,
  config: BoundRoomConfig,
  probe: ProbeWait = PROBE_WAIT,
): Capability[] => {
  const lane = {
    store,
    policies,
    adapters: createAdapterRegistry({ fixturesEnabled: config.adapterFixtures }),
    maxAgeMs: config.maxAgeMs,
    probe,
  };
  return [roomEvidenceCapability(lane), inventoryProbeCapability(lane)] as Capability[];
};
