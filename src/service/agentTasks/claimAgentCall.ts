import { ClaimAgentCallRequestSchema } from '../../api/agentTaskSchemas.js';
import { MAX_AGENT_RECEIPTS } from '../../domain/agentTask.js';
import { agentUseCase, liveCallOf, recordAgentExecutor } from './liveCall.js';

/**
 * ATP-17, ATP-18: claim a pending call with a stable claimId and receive the owned reference and
 * the task. The owner token is returned once and kept only as a hash. ATP-31: the claiming
 * credential is recorded as one that executed agent work in the run.
 */
export const claimAgentCall = agentUseCase(
  'agent_task.claim',
  ClaimAgentCallRequestSchema,
  async ({ deps, principal, request, owner, calls }) => {
    const call = liveCallOf(calls, owner, request);
    await recordAgentExecutor(deps, principal, call.runId);
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
