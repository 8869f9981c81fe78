import { ENDED_WORKFLOW_STATUSES, type WorkflowRecord } from '../../domain/embodiment.js';
import { HelixError } from '../../domain/errors.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { ActingMember } from './embodimentAccess.js';
import { stringArg } from './embodimentAccess.js';
import { connectorIsLive } from './liveSubject.js';

const WORKFLOW_REF_MAX = 320;
export const workflowNotFound = (): HelixError => new HelixError('not_found', {}, 'The workflow was not found.');

/** A workflow of this room by its exact ref (1-320); another room's, or none, is not found. */
export const findRoomWorkflow = async (
  uow: UnitOfWork,
  roomId: string,
  workflowRef: unknown,
): Promise<WorkflowRecord> => {
  const ref = stringArg(workflowRef, 'workflow_ref');
  if (ref.length < 1 || ref.length > WORKFLOW_REF_MAX) throw workflowNotFound();
  const workflow = await uow.embodiment.getWorkflow(ref);
  if (workflow === undefined || workflow.roomId !== roomId) throw workflowNotFound();
  return workflow;
};

/** The caller's own workflow in this room, by its exact ref (1-320); anyone else's is not found. */
export const loadOwnWorkflow = async (
  uow: UnitOfWork,
  acting: ActingMember,
  workflowRef: unknown,
): Promise<WorkflowRecord> => {
  const workflow = await findRoomWorkflow(uow, acting.room.roomId, workflowRef);
  if (workflow.accountId !== acting.caller.accountId) throw workflowNotFound();
  return workflow;
};

/**
 * A workflow whose connector vanished (no heartbeat within the profile ceiling, or its source no
 * longer live) while it was running or stopping ends `failed` with reason `connector_lost`: nothing
 * can report its actions or confirm a stop any more, and claiming "stopped" would be a guess (M-03).
 */
export const settleVanishedConnector = async (
  deps: RoomDeps,
  uow: UnitOfWork,
  workflow: WorkflowRecord,
  now: number,
): Promise<WorkflowRecord> => {
  if (ENDED_WORKFLOW_STATUSES.includes(workflow.status) || workflow.status === 'blocked') return workflow;
  const source = await uow.roomSources.getSource(workflow.sourceId);
  if (source !== undefined && (await connectorIsLive(deps, uow, source, now))) return workflow;
  if (await uow.embodiment.moveWorkflow(workflow.workflowRef, ['running', 'stopping'], 'failed', 'connector_lost', now))
    await uow.embodiment.settleWaitingSteps(workflow.workflowRef, 'failed', 'connector_lost', now);
  return (await uow.embodiment.getWorkflow(workflow.workflowRef)) ?? workflow;
};
