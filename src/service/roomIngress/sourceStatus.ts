import { INGRESS_RECEIPT_SCHEMAS } from '../../api/roomIngressOutputSchemas.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';

const iso = (millis: number | null): string | null => (millis === null ? null : new Date(millis).toISOString());

/**
 * ING-01 `GET …/status`: the binding's admission and connection state as Helix sees it, for the
 * producer holding its bearer. No secret and no hash of one: not the bearer, not the producer
 * epoch; only whether the current admission is this deployment's and when the source last spoke.
 */
export const sourceStatus = async (deps: RoomDeps, source: RoomSourceRecord) => {
  const [admission, status] = await Promise.all([
    deps.store.read.roomSources.getCurrentAdmission(source.sourceId),
    deps.store.read.roomIngress.getStatus(source.sourceId),
  ]);
  const contractHash = admission === undefined ? undefined : deps.adapters.byId(admission.profileId)?.contractHash;
  return {
    schema: INGRESS_RECEIPT_SCHEMAS.status,
    binding_id: source.sourceId,
    domain_adapter: source.domainAdapter,
    world_id: source.worldId,
    source_status: source.status,
    expires_at: new Date(source.expiresAt).toISOString(),
    admission:
      admission === undefined
        ? null
        : {
            admission_id: admission.admissionId,
            profile_id: admission.profileId,
            profile_version: admission.profileVersion,
            manifest_id: admission.manifestId,
            admitted_at: new Date(admission.admittedAt).toISOString(),
            contract_current: contractHash === admission.profileHash,
          },
    connection:
      status === undefined
        ? null
        : {
            game_connected: status.gameConnected,
            last_heartbeat_at: iso(status.lastHeartbeatAt),
            last_observed_at: iso(status.lastObservedAt),
          },
  };
};
