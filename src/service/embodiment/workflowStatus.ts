import type { Principal } from '../../auth/principal.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { ServiceResult } from '../result.js';
import { loadActingMember } from './embodimentAccess.js';
import { loadOwnWorkflow, settleVanishedConnector } from './ownWorkflow.js';
import { type WorkflowStatusReceipt, workflowStatusReceipt } from './workflowViews.js';

/**
 * `helix_minecraft_workflow_status` (MC-04, MC-12, MC-13): the caller's workflow with each action's
 * status and the postcondition the connector reported, `verified` only when Helix checked it. A
 * workflow is `completed` only after its action's postcondition verified, and `stopped` only after
 * the connector's stationary stop (M-03). A connector that vanished ends it `failed` here.
 */
export const workflowStatus = async (
  deps: RoomDeps,
  principal: Principal,
  args: Readonly<Record<string, unknown>>,
): Promise<ServiceResult<WorkflowStatusReceipt>> => {
  const acting = await loadActingMember(deps, principal, 'minecraft.workflow_status', args.room_id);
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const found = await loadOwnWorkflow(uow, acting, args.workflow_ref);
    const workflow = await settleVanishedConnector(deps, uow, found, now);
    const [actions, controls] = await Promise.all([
      uow.embodiment.listActions(workflow.workflowRef),
      uow.embodiment.listControls(workflow.workflowRef),
    ]);
    return { status: 200, body: workflowStatusReceipt(workflow, actions, controls), replayed: false };
  });
};
