import { INGRESS_RECEIPT_SCHEMAS } from '../../api/roomIngressOutputSchemas.js';
import { HeartbeatRequestSchema } from '../../api/roomIngressSchemas.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';
import { requireAdmission } from './currentAdmission.js';
import { acceptIngressRequest, type IngressResult } from './ingressRequest.js';

/**
 * The producer's liveness report (ING-01): whether it is connected to the game and when it last
 * observed the world, stored as the source's status (one row per source) at Helix's clock.
 */
export const recordHeartbeat = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'heartbeat', schema: HeartbeatRequestSchema, source, input },
    async (uow, { source, body, now, producerEpochHash }) => {
      await requireAdmission(deps, uow, source, producerEpochHash);
      await uow.roomIngress.upsertStatus({
        sourceId: source.sourceId,
        ownerHash: source.ownerHash,
        producerEpochHash,
        lastHeartbeatAt: now,
        gameConnected: body.game_connected,
        lastObservedAt: body.last_observed_at === null ? null : Date.parse(body.last_observed_at),
      });
      return { schema: INGRESS_RECEIPT_SCHEMAS.heartbeat, received_at: new Date(now).toISOString() };
    },
  );
