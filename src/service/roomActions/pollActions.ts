import { ActionPollRequestSchema } from '../../api/environmentActionSchemas.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';
import { requireAdmission } from '../roomIngress/currentAdmission.js';
import { acceptIngressRequest, type IngressResult } from '../roomIngress/ingressRequest.js';

/**
 * §23.3, M-02: the connector's poll of the action lane, in the shape of
 * connectors/minecraft/src/actionWire.ts `actionPollResponse` (controls first, then actions). It
 * is accepted only under the source's current admission for the same producer epoch, as probe
 * traffic is, and is recorded in the same request ledger (a retry answers the first answer).
 *
 * No use case queues an action or a control yet (the player action and workflow tools are the
 * next part of issue 16), so the answer is always empty; it is the lane's authenticated,
 * validated frame that the action queue will fill.
 */
export const pollActions = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'actions/pending', schema: ActionPollRequestSchema, source, input },
    async (uow, { source, producerEpochHash }) => {
      await requireAdmission(deps, uow, source, producerEpochHash);
      return { controls: [], actions: [] };
    },
  );
