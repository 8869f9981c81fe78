import { INGRESS_RECEIPT_SCHEMAS } from '../../api/roomIngressOutputSchemas.js';
import { observationSchemasOf } from '../../api/roomObservationSchemas.js';
import { type WorldEventBatchRequest, WorldEventBatchRequestSchema } from '../../api/roomIngressSchemas.js';
import { HelixError } from '../../domain/errors.js';
import type { ObservationRecord } from '../../domain/roomObservations.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';
import { requireAdmission } from './currentAdmission.js';
import { acceptIngressRequest, type IngressRequest, type IngressResult } from './ingressRequest.js';
import { checkObservation, observationRecord, observedAtOf } from './observationRecord.js';
import { storageLimitsOf, storeObservations } from './storageBounds.js';

type Batch = IngressRequest<WorldEventBatchRequest>;

/**
 * ING-03: a bounded batch of world events (at most 16, and no more than the admitted profile's
 * `max_batch_events`, under the ingress body limit) for the
 * source's own world. Every event's snapshot must satisfy the admitted profile's schema, or the
 * whole batch is refused; each is then stored as one `snapshot` observation with its exact
 * provenance, within the room's storage bounds (./storageBounds.ts), and the source's status
 * remembers the newest observation time.
 */
export const recordWorldEvents = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'world-events/batch', schema: WorldEventBatchRequestSchema, source, input },
    async (uow, request) => {
      const current = await requireAdmission(deps, uow, request.source, request.producerEpochHash);
      if (request.body.world_id !== request.source.worldId)
        throw new HelixError('environment_adapter_identity_mismatch');
      // The lane admits at most 16 events; the admitted profile may admit fewer.
      const ceiling = current.resolved.profile.ceilings.max_batch_events;
      if (request.body.events.length > ceiling)
        throw new HelixError('invalid_request', {
          issues: [{ path: 'events', message: `at most ${ceiling} events for this adapter profile` }],
        });
      const schemas = observationSchemasOf(current.resolved.profile);
      if (schemas === undefined) throw new HelixError('environment_adapter_observation_schema_invalid');
      const observations = request.body.events.map((event, i) =>
        observationRecord(request.source, current, {
          kind: 'snapshot',
          eventId: event.event_id,
          requestId: request.body.request_id,
          producerEpochHash: request.producerEpochHash,
          observedAt: observedAtOf(event.observed_at, request.now, `events.${i}.observed_at`),
          receivedAt: request.now,
          payload: checkObservation(schemas.snapshot, event.snapshot, `events.${i}.snapshot`),
        }),
      );
      await storeObservations(uow, request.source, observations, storageLimitsOf(deps));
      await rememberNewest(uow, request, observations);
      return {
        schema: INGRESS_RECEIPT_SCHEMAS.batch,
        accepted: observations.length,
        observation_ids: observations.map((o) => o.observationId),
        // §22: an observation is evidence to re-enter through a run's governed turn, never an answer.
        reentry_required: true,
      };
    },
  );

/** The status row keeps the newest observation time; a batch before any heartbeat starts the row. */
const rememberNewest = async (uow: UnitOfWork, request: Batch, observations: readonly ObservationRecord[]) => {
  const { source, now, producerEpochHash } = request;
  const status = await uow.roomIngress.getStatus(source.sourceId);
  const newest = Math.max(status?.lastObservedAt ?? 0, ...observations.map((o) => o.observedAt));
  await uow.roomIngress.upsertStatus({
    sourceId: source.sourceId,
    ownerHash: source.ownerHash,
    producerEpochHash,
    lastHeartbeatAt: status?.lastHeartbeatAt ?? now,
    gameConnected: status?.gameConnected ?? true,
    lastObservedAt: newest,
  });
};
