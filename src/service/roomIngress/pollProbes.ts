import { INGRESS_RECEIPT_SCHEMAS } from '../../api/roomIngressOutputSchemas.js';
import { ProbePollRequestSchema } from '../../api/roomIngressSchemas.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';
import { requireAdmission } from './currentAdmission.js';
import { acceptIngressRequest, type IngressResult } from './ingressRequest.js';

/**
 * PRB-02: the producer's poll for the probes runs asked of its source, oldest first, at most
 * `max_probes`, in the connector's shape `{probes: [{probe_id, probe_type, requested_at}]}`. A
 * probe handed out is marked delivered; an unanswered one is handed out again until it expires. A
 * probe type the admitted profile does not allowlist is never handed out: it is expired instead.
 */
export const pollProbes = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'probes/pending', schema: ProbePollRequestSchema, source, input },
    async (uow, { source, body, now, producerEpochHash }) => {
      const { resolved } = await requireAdmission(deps, uow, source, producerEpochHash);
      const taken = await uow.roomIngress.takeProbes(source.sourceId, now, body.max_probes);
      const allowed = resolved.profile.allowed_probe_types;
      for (const probe of taken.filter((p) => !allowed.includes(p.probeType)))
        await uow.roomIngress.expireProbe(probe.probeId, now);
      return {
        schema: INGRESS_RECEIPT_SCHEMAS.poll,
        probes: taken
          .filter((p) => allowed.includes(p.probeType))
          .map((p) => ({
            probe_id: p.probeId,
            probe_type: p.probeType,
            requested_at: new Date(p.requestedAt).toISOString(),
          })),
      };
    },
  );
