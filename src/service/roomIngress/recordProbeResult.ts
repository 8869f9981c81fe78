import { INGRESS_RECEIPT_SCHEMAS } from '../../api/roomIngressOutputSchemas.js';
import { observationSchemasOf } from '../../api/roomObservationSchemas.js';
import { type ProbeResultRequest, ProbeResultRequestSchema } from '../../api/roomIngressSchemas.js';
import { HelixError } from '../../domain/errors.js';
import type { ProbeRecord } from '../../domain/roomObservations.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';
import { type CurrentAdmission, requireAdmission } from './currentAdmission.js';
import { acceptIngressRequest, type IngressRequest, type IngressResult } from './ingressRequest.js';
import { checkObservation, observationRecord, observedAtOf } from './observationRecord.js';
import { storageLimitsOf, storeObservations } from './storageBounds.js';

/**
 * PRB-02: the producer's answer to one probe. The probe must be this source's (another source's
 * is not found, like an unknown one), still open (answered or expired is `ingress_probe_closed`)
 * and of the type it was asked with, which the admitted profile allowlists. The answer is stored
 * as a `probe_result` observation (`{probe_type, status, result}`, the result checked against the
 * profile) with its exact provenance, and the probe is closed with it, in the same transaction.
 */
export const recordProbeResult = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'probes/result', schema: ProbeResultRequestSchema, source, input },
    async (uow, request) => {
      const current = await requireAdmission(deps, uow, request.source, request.producerEpochHash);
      const probe = await uow.roomIngress.getProbe(request.body.probe_id);
      if (probe === undefined || probe.sourceId !== request.source.sourceId)
        throw new HelixError('ingress_probe_not_found');
      if (!isOpen(probe, request.now)) throw new HelixError('ingress_probe_closed');
      const observation = observationRecord(request.source, current, {
        kind: 'probe_result',
        eventId: probe.probeId,
        requestId: request.body.request_id,
        producerEpochHash: request.producerEpochHash,
        observedAt: observedAtOf(request.body.observed_at, request.now, 'observed_at'),
        receivedAt: request.now,
        payload: probePayload(current, probe, request),
      });
      await storeObservations(uow, request.source, [observation], storageLimitsOf(deps));
      const { status } = request.body;
      if (!(await uow.roomIngress.answerProbe(probe.probeId, status, observation.observationId, request.now)))
        throw new HelixError('ingress_probe_closed');
      return {
        schema: INGRESS_RECEIPT_SCHEMAS.probeResult,
        probe_id: probe.probeId,
        status,
        observation_id: observation.observationId,
        reentry_required: true,
      };
    },
  );

const isOpen = (probe: ProbeRecord, now: number): boolean =>
  (probe.status === 'pending' || probe.status === 'delivered') && probe.expiresAt > now;

/** `{probe_type, status, result}`: a completed probe has a result its profile admits; the others have none. */
const probePayload = (current: CurrentAdmission, probe: ProbeRecord, request: IngressRequest<ProbeResultRequest>) => {
  const { probe_type, status, result } = request.body;
  if (probe_type !== probe.probeType || !current.resolved.profile.allowed_probe_types.includes(probe_type))
    throw new HelixError('environment_adapter_observation_schema_invalid', {
      issues: [{ path: 'probe_type', message: 'is not the type this probe was asked with' }],
    });
  const schemas = observationSchemasOf(current.resolved.profile);
  if (schemas === undefined) throw new HelixError('environment_adapter_observation_schema_invalid');
  if (status !== 'completed') {
    if (result !== null)
      throw new HelixError('environment_adapter_observation_schema_invalid', {
        issues: [{ path: 'result', message: 'must be null unless the probe completed' }],
      });
    return { probe_type, status, result: null };
  }
  return { probe_type, status, result: checkObservation(schemas.probeResult, result, 'result') };
};
