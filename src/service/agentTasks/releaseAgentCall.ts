import { ReleaseAgentCallRequestSchema } from '../../api/agentTaskSchemas.js';
import type { Principal } from '../../auth/principal.js';
import type { RunServiceDeps, ServiceResult } from '../runs/deps.js';
import { acceptAgentRequest, ownedCallOf } from './liveCall.js';

/** Release the claim (the call stays pending) or abandon the task (the turn fails; no fallback, ATP-38). */
export const releaseAgentCall = async (
  deps: RunServiceDeps,
  principal: Principal,
  body: unknown,
): Promise<ServiceResult> => {
  const { request, owner, calls } = acceptAgentRequest(
    deps,
    principal,
    'agent_task.release',
    ReleaseAgentCallRequestSchema,
    body,
  );
  const call = await ownedCallOf(deps, calls, owner, request.ownedRef);
  if (request.abandon) call.abandon();
  else call.release();
  return { status: 200, replayed: false, body: { released: true, abandoned: request.abandon } };
};
