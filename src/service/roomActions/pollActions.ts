import { ActionPollRequestSchema, ACTION_LANE_LIMITS } from '../../api/environmentActionSchemas.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';
import { requireAdmission } from '../roomIngress/currentAdmission.js';
import { acceptIngressRequest, type IngressResult } from '../roomIngress/ingressRequest.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * §23.3, M-02, M-03: the connector's poll of the action lane, in the shape of
 * connectors/minecraft/src/actionWire.ts `actionPollResponse`: every open control of this binding
 * first (the connector applies a stop before any action), then at most `max_actions` open actions
 * of its running workflows, oldest first. What is handed out is marked delivered; an unanswered
 * one is handed out again, so a lost poll loses nothing. Accepted only under the source's current
 * admission for the same producer epoch, and recorded in the ingress request ledger.
 */
export const pollActions = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'actions/pending', schema: ActionPollRequestSchema, source, input },
    async (uow, { source, body, now, producerEpochHash }) => {
      await requireAdmission(deps, uow, source, producerEpochHash);
      const controls = await uow.embodiment.takeControls(source.sourceId, now, ACTION_LANE_LIMITS.maxPendingControls);
      const actions = await uow.embodiment.takeActions(source.sourceId, now, body.max_actions);
      const subjects = new Map<string, string>();
      for (const a of actions) {
        const workflow = await uow.embodiment.getWorkflow(a.workflowRef);
        if (workflow !== undefined) subjects.set(a.workflowRef, workflow.subjectRef);
      }
      return {
        controls: controls.map((c) => ({
          control_id: c.controlId,
          workflow_ref: c.workflowRef,
          control: c.control,
          issued_at: iso(c.issuedAt),
        })),
        actions: actions.map((a) => ({
          action_id: a.actionId,
          workflow_ref: a.workflowRef,
          subject_ref: subjects.get(a.workflowRef) ?? '',
          action: JSON.parse(a.actionJson) as unknown,
          issued_at: iso(a.issuedAt),
          deadline_at: iso(a.deadlineAt),
        })),
      };
    },
  );
