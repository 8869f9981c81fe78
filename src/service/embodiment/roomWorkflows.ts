import { EMBODIMENT_LIMITS, type WorkflowRecord } from '../../domain/embodiment.js';
import { HelixError } from '../../domain/errors.js';
import { loadMemberRoom } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import { settleVanishedConnector } from './ownWorkflow.js';
import { queueStop } from './queueStop.js';

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

const mayStop = (role: string, viewer: string, workflow: WorkflowRecord): boolean =>
  role === 'owner' || workflow.accountId === viewer;

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
    stoppable: mayStop(member.role, accountId, w),
  }));
};

/**
 * MC-12, M-03 manual override: a signed-in human stops a workflow in their room from the console:
 * a room owner any workflow, another member their own (an observer starts none). The stop is the
 * same Emergency Stop as `helix_minecraft_workflow_control`: `stopping` until the connector
 * reports a verified stationary stop. A safety control, so it needs no consent and works under
 * the Shared Live Room policy lock; another room's workflow, or one this member may not stop, is
 * not found. A workflow whose connector vanished is settled `failed connector_lost` instead.
 */
export const consoleEmergencyStop = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
  workflowRef: string,
): Promise<WorkflowRecord['status']> => {
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const { member } = await loadMemberRoom(uow.rooms, roomId, accountId, null);
    const found = await uow.embodiment.getWorkflow(workflowRef);
    if (found === undefined || found.roomId !== roomId || !mayStop(member.role, accountId, found))
      throw new HelixError('not_found', {}, 'The workflow was not found.');
    const workflow = await settleVanishedConnector(deps, uow, found, now);
    await queueStop(uow, workflow, 'emergency_stop', now);
    return (await uow.embodiment.getWorkflow(workflowRef))?.status ?? workflow.status;
  });
};
