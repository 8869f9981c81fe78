import { EMBODIMENT_LIMITS, type WorkflowRecord } from '../../domain/embodiment.js';
import { loadMemberRoom } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import { mayStopWorkflow, stopWorkflow } from './emergencyStop.js';

/** One open workflow as the console's room page shows it: no subject identity beyond its opaque ref. */
export interface RoomWorkflowView {
  readonly workflow_ref: string;
  readonly subject_ref: string;
  /** The member whose agent started it. */
  readonly account_id: string;
  readonly status: WorkflowRecord['status'];
  readonly updated_at: string;
  /** Whether this viewer may stop it: a room owner any workflow, another member their own. */
  readonly stoppable: boolean;
}

/**
 * MC-12 manual override, the console's view: the room's open workflows (running, blocked,
 * stopping), most recently changed first, for a current member of the room (anyone else: not
 * found). Read on every page load, so a stop shows as `stopping` until the connector confirms it.
 */
export const listRoomWorkflows = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
): Promise<RoomWorkflowView[]> => {
  const { member } = await loadMemberRoom(deps.store.read.rooms, roomId, accountId, null);
  const open = await deps.store.read.embodiment.listOpenWorkflows(roomId, EMBODIMENT_LIMITS.listMax);
  return open.map((w) => ({
    workflow_ref: w.workflowRef,
    subject_ref: w.subjectRef,
    account_id: w.accountId,
    status: w.status,
    updated_at: new Date(w.updatedAt).toISOString(),
    stoppable: mayStopWorkflow(member, w),
  }));
};

/**
 * MC-12, M-03 manual override: a signed-in human stops a workflow in their room from the console,
 * the same stop as `helix_minecraft_workflow_control` (./emergencyStop.ts: who may stop, and why
 * no consent or policy lock refuses it). Answers the workflow's status after the stop.
 */
export const consoleEmergencyStop = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
  workflowRef: string,
): Promise<WorkflowRecord['status']> => {
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const request = { accountId, tenantHash: null, roomId, workflowRef, control: 'emergency_stop' as const };
    return (await stopWorkflow(deps, uow, request, now)).workflow.status;
  });
};
