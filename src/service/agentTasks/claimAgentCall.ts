import { ClaimAgentCallRequestSchema } from '../../api/agentTaskSchemas.js';
import { MAX_AGENT_RECEIPTS } from '../../domain/agentTask.js';
import { agentUseCase, liveCallOf } from './liveCall.js';

/**
 * ATP-17, ATP-18: claim a pending call with a stable claimId and receive the owned reference and
 * the task. The owner token is returned once and kept only as a hash.
 */
export const claimAgentCall = agentUseCase(
  'agent_task.claim',
  ClaimAgentCallRequestSchema,
  async ({ request, owner, calls }) => {
    const call = liveCallOf(calls, owner, request);
    const { ownerToken, recovered } = call.claimAs(request.claimId);
    return {
      body: {
        ownedRef: { runId: call.runId, callId: call.callId, ownerToken },
        recovered,
        task: { ...call.task, skills: [...call.task.skills], maxReceipts: MAX_AGENT_RECEIPTS },
      },
    };
  },
);
