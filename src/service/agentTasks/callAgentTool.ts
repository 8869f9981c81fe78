import { CallAgentToolRequestSchema } from '../../api/agentTaskSchemas.js';
import type { Principal } from '../../auth/principal.js';
import type { RunServiceDeps, ServiceResult } from '../runs/deps.js';
import { acceptAgentRequest, ownedCallOf } from './liveCall.js';

/** ATP-19..ATP-21: one declared tool call through Helix's admitted, recording capability handle. */
export const callAgentTool = async (
  deps: RunServiceDeps,
  principal: Principal,
  body: unknown,
): Promise<ServiceResult> => {
  const { request, owner, calls } = acceptAgentRequest(
    deps,
    principal,
    'agent_task.call_tool',
    CallAgentToolRequestSchema,
    body,
  );
  const call = await ownedCallOf(deps, calls, owner, request.ownedRef);
  const { receipt, replayed } = await call.callTool(request.toolCallId, request.name, request.input);
  return { status: 200, replayed, body: { ...receipt, replayed } };
};
