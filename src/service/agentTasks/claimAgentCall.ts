import { ClaimAgentCallRequestSchema } from '../../api/agentTaskSchemas.js';
import type { Principal } from '../../auth/principal.js';
import { MAX_AGENT_RECEIPTS } from '../../domain/agentTask.js';
import type { RunServiceDeps, ServiceResult } from '../runs/deps.js';
import { acceptAgentRequest, liveCallOf } from './liveCall.js';

/**
 * ATP-17, ATP-18: claim a pending call with a stable claimId and receive the owned reference and
 * the task. The owner token is returned once and kept only as a hash.
 */
export const claimAgentCall = async (
  deps: RunServiceDeps,
  principal: Principal,
  body: unknown,
): Promise<ServiceResult> => {
  const { request, owner, calls } = acceptAgentRequest(
    deps,
    principal,
    'agent_task.claim',
    ClaimAgentCallRequestSchema,
    body,
  );
  const call = liveCallOf(calls, owner, request);
  const { ownerToken, recovered } = call.claimAs(request.claimId);
  return {
    status: 200,
    replayed: false,
    body: {
      ownedRef: { runId: call.runId, callId: call.callId, ownerToken },
      recovered,
      task: {
        instructions: call.task.instructions,
        skills: [...call.task.skills],
        tools: call.task.tools,
        outputSchema: call.task.outputSchema,
        assets: call.task.assets,
        maxReceipts: MAX_AGENT_RECEIPTS,
      },
    },
  };
};
