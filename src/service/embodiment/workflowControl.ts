import type { Principal } from '../../auth/principal.js';
import { EMBODIMENT_LIMITS, type WorkflowRecord } from '../../domain/embodiment.js';
import { HelixError } from '../../domain/errors.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { ServiceResult } from '../result.js';
import { admitCaller } from '../rooms/access.js';
import { stopWorkflow } from './emergencyStop.js';
import { loadActingMember, requireActor, stringArg } from './embodimentAccess.js';
import { requireConnector } from './liveSubject.js';
import { loadOwnWorkflow, settleVanishedConnector } from './ownWorkflow.js';
import type { WorkflowControlReceipt } from './workflowViews.js';

const CONTROLS = ['resume', 'cancel', 'emergency_stop'] as const;
type Control = (typeof CONTROLS)[number];
const REASON_MAX = 1_000;

const controlArg = (value: unknown): Control => {
  if (typeof value === 'string' && (CONTROLS as readonly string[]).includes(value)) return value as Control;
  throw new HelixError('invalid_request', {
    issues: [{ path: 'control', message: 'must be resume, cancel or emergency_stop' }],
  });
};

/**
 * `helix_minecraft_workflow_control` (MC-05, M-03). `cancel` and `emergency_stop` are the stop the
 * console's manual override makes (./emergencyStop.ts): never refused for the room's consent, the
 * caller's role or the Shared Live Room policy lock, still scope-checked; a room owner may stop any
 * workflow of the room, another member their own. The connector applies the control before any
 * action; the workflow is `stopping` until the connector reports `stopped` with a stationary
 * postcondition (drift under 0.05 blocks), never on this call, and a control on an ended workflow
 * queues nothing and answers its status. `resume` drives the player again, so it needs everything
 * acting needs (requireActor) and re-queues the caller's own blocked workflow if its connector is
 * still live and admitted. `reason` (≤ 1,000) is checked but not stored or sent: no free text
 * reaches the game (MC-11).
 */
export const workflowControl = async (
  deps: RoomDeps,
  principal: Principal,
  args: Readonly<Record<string, unknown>>,
): Promise<ServiceResult<WorkflowControlReceipt>> => {
  const control = controlArg(args.control);
  if (args.reason !== undefined && (typeof args.reason !== 'string' || args.reason.length > REASON_MAX))
    throw new HelixError('invalid_request', {
      issues: [{ path: 'reason', message: 'must be at most 1000 characters' }],
    });
  const receipt =
    control === 'resume' ? await resumeWorkflow(deps, principal, args) : await stop(deps, principal, args, control);
  return { status: 200, body: receipt, replayed: false };
};

const controlReceipt = (
  roomId: string,
  workflow: WorkflowRecord,
  control: Control,
  controlId: string | null,
): WorkflowControlReceipt => ({
  operation: 'minecraft.player.workflow.control',
  room_id: roomId,
  workflow_ref: workflow.workflowRef,
  control,
  control_id: controlId,
  status: workflow.status,
  answer_authority: false,
  terminal_eligible: false,
});

const stop = async (
  deps: RoomDeps,
  principal: Principal,
  args: Readonly<Record<string, unknown>>,
  control: Exclude<Control, 'resume'>,
): Promise<WorkflowControlReceipt> => {
  const caller = await admitCaller(deps, principal, 'minecraft.workflow_control', 'safety_stop');
  const roomId = stringArg(args.room_id, 'room_id');
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const request = { ...caller, roomId, workflowRef: args.workflow_ref, control };
    const { workflow, controlId } = await stopWorkflow(deps, uow, request, now);
    return controlReceipt(roomId, workflow, control, controlId);
  });
};

const resumeWorkflow = async (
  deps: RoomDeps,
  principal: Principal,
  args: Readonly<Record<string, unknown>>,
): Promise<WorkflowControlReceipt> => {
  const acting = await loadActingMember(deps, principal, 'minecraft.workflow_control', args.room_id);
  requireActor(acting);
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const workflow = await settleVanishedConnector(
      deps,
      uow,
      await loadOwnWorkflow(uow, acting, args.workflow_ref),
      now,
    );
    await resume(deps, uow, workflow, now);
    const after = (await uow.embodiment.getWorkflow(workflow.workflowRef)) ?? workflow;
    return controlReceipt(acting.room.roomId, after, 'resume', null);
  });
};

const resume = async (deps: RoomDeps, uow: UnitOfWork, workflow: WorkflowRecord, now: number): Promise<void> => {
  if (workflow.status !== 'blocked') throw new HelixError('environment_workflow_not_resumable');
  const source = await uow.roomSources.getSource(workflow.sourceId);
  if (source === undefined) throw new HelixError('environment_source_unavailable');
  await requireConnector(deps, uow, source, now);
  for (const action of await uow.embodiment.listActions(workflow.workflowRef))
    if (action.status === 'blocked')
      await uow.embodiment.requeueAction(action.actionId, now, now + EMBODIMENT_LIMITS.actionDeadlineMs);
  await uow.embodiment.moveWorkflow(workflow.workflowRef, ['blocked'], 'running', null, now);
};
