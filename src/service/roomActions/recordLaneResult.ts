import type { z } from 'zod';
import {
  type Action,
  type ActionResultReceiptSchema,
  ActionResultRequestSchema,
  type ControlResultReceiptSchema,
  ControlResultRequestSchema,
} from '../../api/environmentActionSchemas.js';
import { type ActionRecord, EMBODIMENT_LIMITS, type WorkflowStatus } from '../../domain/embodiment.js';
import { HelixError } from '../../domain/errors.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import { verifyPostcondition, verifyStationary } from '../embodiment/verifyPostcondition.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomDeps } from '../rooms/deps.js';
import { requireAdmission } from '../roomIngress/currentAdmission.js';
import { acceptIngressRequest, type IngressResult } from '../roomIngress/ingressRequest.js';

const notOpen = (what: string): HelixError =>
  new HelixError('not_found', {}, `No open ${what} of this binding has that id.`);

/** What an action's verified outcome makes of its workflow (a completed step first queues the next one). */
const WORKFLOW_AFTER: Readonly<Record<'completed' | 'blocked' | 'failed' | 'stopped', WorkflowStatus | null>> = {
  completed: 'completed',
  blocked: 'blocked',
  failed: 'failed',
  // Only the control's stationary stop ends a workflow as stopped (M-03).
  stopped: null,
};

/**
 * Moves the workflow on after one step's verified outcome: a completed step queues the next
 * waiting one (the workflow stays running) or completes the workflow; a blocked step blocks it
 * (resume re-queues that step, the later ones still wait); a failed step fails it and ends the
 * steps that were still waiting.
 */
const advanceWorkflow = async (
  uow: UnitOfWork,
  action: ActionRecord,
  status: keyof typeof WORKFLOW_AFTER,
  reason: string | null,
  now: number,
): Promise<void> => {
  if (
    status === 'completed' &&
    (await uow.embodiment.queueNextStep(action.workflowRef, now, now + EMBODIMENT_LIMITS.actionDeadlineMs))
  )
    return;
  const next = WORKFLOW_AFTER[status];
  if (next === null) return;
  await uow.embodiment.moveWorkflow(action.workflowRef, ['running'], next, reason, now);
  if (next === 'failed')
    await uow.embodiment.settleWaitingSteps(action.workflowRef, 'failed', 'earlier_step_failed', now);
};

/**
 * §23.3, MC-12, MC-13: the connector's report of an action Helix handed to THIS binding (any other
 * id is not found). A `completed` report whose postcondition does not verify against the issued
 * action is recorded `failed` with reason `postcondition_unverified`. The report is kept with the
 * action (status, reason, postcondition, time) and its request in the ledger: its provenance.
 */
export const recordActionResult = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'actions/result', schema: ActionResultRequestSchema, source, input },
    async (uow, { source, body, now, producerEpochHash }) => {
      await requireAdmission(deps, uow, source, producerEpochHash);
      const action = await uow.embodiment.getAction(body.action_id);
      if (action === undefined || action.sourceId !== source.sourceId || action.workflowRef !== body.workflow_ref)
        throw notOpen('action');
      const verified =
        body.status !== 'completed' || verifyPostcondition(JSON.parse(action.actionJson) as Action, body.postcondition);
      const status = verified ? body.status : 'failed';
      const reason = verified ? body.reason : 'postcondition_unverified';
      const post = body.postcondition === null ? null : JSON.stringify(body.postcondition);
      if (!(await uow.embodiment.answerAction(action.actionId, status, reason, post, now))) throw notOpen('action');
      await advanceWorkflow(uow, action, status, reason, now);
      const receipt: z.infer<typeof ActionResultReceiptSchema> = {
        action_id: action.actionId,
        workflow_ref: action.workflowRef,
        status,
        reason,
      };
      return receipt;
    },
  );

/**
 * M-03: the connector's report of a cancel or emergency stop Helix issued to this binding. `stopped`
 * counts only with a stationary postcondition under the epsilon; anything else is recorded
 * `failed` and the workflow stays `stopping` (not stopped). A verified stop ends the workflow
 * `stopped` and its open actions with it.
 */
export const recordControlResult = (deps: RoomDeps, source: RoomSourceRecord, input: unknown): Promise<IngressResult> =>
  acceptIngressRequest(
    deps,
    { route: 'controls/result', schema: ControlResultRequestSchema, source, input },
    async (uow, { source, body, now, producerEpochHash }) => {
      await requireAdmission(deps, uow, source, producerEpochHash);
      const control = await uow.embodiment.getControl(body.control_id);
      if (control === undefined || control.sourceId !== source.sourceId || control.workflowRef !== body.workflow_ref)
        throw notOpen('control');
      const stopped = body.status === 'stopped' && verifyStationary(body.postcondition);
      const post = body.postcondition === null ? null : JSON.stringify(body.postcondition);
      const status = stopped ? 'stopped' : 'failed';
      if (!(await uow.embodiment.answerControl(control.controlId, status, post, now))) throw notOpen('control');
      if (stopped) {
        for (const action of await uow.embodiment.listActions(control.workflowRef))
          await uow.embodiment.answerAction(action.actionId, 'stopped', control.control, null, now);
        await uow.embodiment.settleWaitingSteps(control.workflowRef, 'stopped', control.control, now);
        await uow.embodiment.moveWorkflow(control.workflowRef, ['stopping'], 'stopped', control.control, now);
      }
      const receipt: z.infer<typeof ControlResultReceiptSchema> = {
        control_id: control.controlId,
        workflow_ref: control.workflowRef,
        status,
      };
      return receipt;
    },
  );
