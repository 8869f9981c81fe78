import { ReleaseAgentCallRequestSchema } from '../../api/agentTaskSchemas.js';
import { agentUseCase, ownedCallOf } from './liveCall.js';

/** Release the claim (the call stays pending) or abandon the task (the turn fails; no fallback, ATP-38). */
export const releaseAgentCall = agentUseCase(
  'agent_task.release',
  ReleaseAgentCallRequestSchema,
  async ({ deps, request, owner, calls }) => {
    const call = await ownedCallOf(deps, calls, owner, request.ownedRef);
    if (request.abandon) call.abandon(request.ownedRef.ownerToken);
    else call.release(request.ownedRef.ownerToken);
    return { body: { released: true, abandoned: request.abandon } };
  },
);
