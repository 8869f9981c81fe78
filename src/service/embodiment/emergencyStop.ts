import type { ConnectorControl, WorkflowRecord } from '../../domain/embodiment.js';
import type { RoomMemberRecord } from '../../domain/rooms.js';
import type { UnitOfWork } from '../../store/port.js';
import { loadMemberRoom } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import { findRoomWorkflow, settleVanishedConnector, workflowNotFound } from './ownWorkflow.js';
import { queueStop } from './queueStop.js';

/**
 * Who may stop a workflow (MC-12 manual override): a current member of its room who is a room
 * owner (any workflow) or who started it (their own), whatever their role now. A former member
 * has nothing left to stop: removal or demotion already stopped their workflows in the same
 * transaction (withdrawMemberEmbodiment), and the room is not found for them (RREST-03).
 */
export const mayStopWorkflow = (member: RoomMemberRecord, workflow: WorkflowRecord): boolean =>
  member.role === 'owner' || workflow.accountId === member.accountId;

/** The acting account, the room and the workflow a stop names, exactly as the caller gave them. */
export interface StopRequest {
  readonly accountId: string;
  /** The caller's tenant hash over MCP (another tenant's room is not found); null for the console. */
  readonly tenantHash: string | null;
  readonly roomId: string;
  readonly workflowRef: unknown;
  readonly control: ConnectorControl;
}

export interface StopOutcome {
  readonly workflow: WorkflowRecord;
  /** The queued control; null when the workflow had already ended (nothing to stop). */
  readonly controlId: string | null;
}

/**
 * The one stop of the console and of `helix_minecraft_workflow_control` (MC-05, MC-12, M-03):
 * queues a cancel or Emergency Stop the connector receives before any action, and the workflow is
 * `stopping` until the connector reports a verified stationary stop. A stop only takes motion
 * away, so it is a safety control: the callers do not ask for the room's current consent, the
 * member's role, an active room or the Shared Live Room policy (the cleanup exception of WD-05 and
 * MRT-11, for the same reason); the MCP caller still needs its OAuth scopes and a linked account.
 * Another room's workflow, or one this member may not stop, is not found; a workflow whose
 * connector vanished is settled `failed connector_lost` instead.
 */
export const stopWorkflow = async (
  deps: RoomDeps,
  uow: UnitOfWork,
  request: StopRequest,
  now: number,
): Promise<StopOutcome> => {
  const { member } = await loadMemberRoom(uow.rooms, request.roomId, request.accountId, request.tenantHash);
  const found = await findRoomWorkflow(uow, request.roomId, request.workflowRef);
  if (!mayStopWorkflow(member, found)) throw workflowNotFound();
  const workflow = await settleVanishedConnector(deps, uow, found, now);
  const controlId = await queueStop(uow, workflow, request.control, now);
  return { workflow: (await uow.embodiment.getWorkflow(workflow.workflowRef)) ?? workflow, controlId };
};
