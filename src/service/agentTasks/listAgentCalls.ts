import { ListAgentCallsRequestSchema } from '../../api/agentTaskSchemas.js';
import type { Principal } from '../../auth/principal.js';
import type { RunServiceDeps, ServiceResult } from '../runs/deps.js';
import { acceptAgentRequest } from './liveCall.js';

/** The owner's pending agent calls (ATP-16: `callId` is the pending call's id); optionally a long poll. */
export const listAgentCalls = async (
  deps: RunServiceDeps,
  principal: Principal,
  body: unknown,
): Promise<ServiceResult> => {
  const { request, owner, calls } = acceptAgentRequest(
    deps,
    principal,
    'agent_task.list',
    ListAgentCallsRequestSchema,
    body,
  );
  const pending = await calls.waitForPending(owner.ownerHash, request.waitSeconds * 1000);
  const listed = pending.filter((c) => request.runId === undefined || c.runId === request.runId);
  return {
    status: 200,
    replayed: false,
    body: {
      calls: listed.map((c) => ({
        runId: c.runId,
        callId: c.callId,
        turn: c.turn,
        claimed: c.claimed,
        deadline: new Date(c.deadline).toISOString(),
      })),
    },
  };
};
