import type { Principal } from '../../auth/principal.js';
import { EMBODIMENT_LIMITS, type WorkflowRecord } from '../../domain/embodiment.js';
import { HelixError } from '../../domain/errors.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomDeps, RoomResult } from '../rooms/deps.js';
import { loadActingMember, requireActor } from './embodimentAccess.js';
import { requireConnector } from './liveSubject.js';
import { loadOwnWorkflow, settleVanishedConnector } from './ownWorkflow.js';
import { queueStop } from './queueStop.js';
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
 * `helix_minecraft_workflow_control` (MC-05, M-03). `cancel` and `emergency_stop` queue a control the
 * connector applies before any action (controls are handed out first) and move the workflow to
 * `stopping`; it becomes `stopped` only when the connector reports `stopped` with a stationary
 * postcondition (drift under 0.05 blocks), never on this call. A control on an ended workflow
 * queues nothing and answers its status. `resume` re-queues a blocked workflow's action if its
 * connector is still live and admitted. `reason` (≤ 1,000) is checked but not stored or sent: no
 * free text reaches the game (MC-11).
 */
export const workflowControl = async (
  deps: RoomDeps,
  principal: Principal,
  args: Readonly<Record<string, unknown>>,
): Promise<RoomResult<WorkflowControlReceipt>> => {
  const acting = await loadActingMember(deps, principal, 'minecraft.workflow_control', args.room_id);
  requireActor(acting);
  const control = controlArg(args.control);
  if (args.reason !== undefined && (typeof args.reason !== 'string' || args.reason.length > REASON_MAX))
    throw new HelixError('invalid_request', {
      issues: [{ path: 'reason', message: 'must be at most 1000 characters' }],
    });
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const workflow = await settleVanishedConnector(
      deps,
      uow,
      await loadOwnWorkflow(uow, acting, args.workflow_ref),
      now,
    );
    const controlId =
      control === 'resume' ? await resume(deps, uow, workflow, now) : await queueStop(uow, workflow, control, now);
    const after = (await uow.embodiment.getWorkflow(workflow.workflowRef)) ?? workflow;
    const body: WorkflowControlReceipt = {
      operation: 'minecraft.player.workflow.control',
      room_id: acting.room.roomId,
      workflow_ref: workflow.workflowRef,
      control,
      control_id: controlId,
      status: after.status,
      answer_authority: false,
      terminal_eligible: false,
    };
    return { status: 200, body, replayed: false };
  });
};

const resume = async (deps: RoomDeps, uow: UnitOfWork, workflow: WorkflowRecord, now: number): Promise<null> => {
  if (workflow.status !== 'blocked') throw new HelixError('environment_workflow_not_resumable');
  const source = await uow.roomSources.getSource(workflow.sourceId);
  if (source === undefined) throw new HelixError('environment_source_unavailable');
  await requireConnector(deps, uow, source, now);
  for (const action of await uow.embodiment.listActions(workflow.workflowRef))
    if (action.status === 'blocked')
      await uow.embodiment.requeueAction(action.actionId, now, now + EMBODIMENT_LIMITS.actionDeadlineMs);
  await uow.embodiment.moveWorkflow(workflow.workflowRef, ['blocked'], 'running', null, now);
  return null;
};
