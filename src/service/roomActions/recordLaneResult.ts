import { ActionResultRequestSchema, ControlResultRequestSchema } from '../../api/environmentActionSchemas.js';
import { HelixError } from '../../domain/errors.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';
import { requireAdmission } from '../roomIngress/currentAdmission.js';
import { acceptIngressRequest, type IngressResult } from '../roomIngress/ingressRequest.js';

const notIssued = (what: string): HelixError =>
  new HelixError('not_found', {}, `No open ${what} of this binding has that id.`);

/**
 * §23.3, MC-12: the connector's report of an action's outcome. A result is accepted only for an
 * action Helix handed to this binding; since no action is queued yet (see ./pollActions.ts), every
 * schema-valid result under the current admission is `not_found`, and nothing is recorded.
 */
export const recordActionResult = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'actions/result', schema: ActionResultRequestSchema, source, input },
    async (uow, { source, producerEpochHash }) => {
      await requireAdmission(deps, uow, source, producerEpochHash);
      throw notIssued('action');
    },
  );

/** M-03: the connector's report of a cancel or emergency stop; as above, only for a control Helix issued. */
export const recordControlResult = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'controls/result', schema: ControlResultRequestSchema, source, input },
    async (uow, { source, producerEpochHash }) => {
      await requireAdmission(deps, uow, source, producerEpochHash);
      throw notIssued('control');
    },
  );
