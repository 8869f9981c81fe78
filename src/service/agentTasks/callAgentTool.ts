import { CallAgentToolRequestSchema } from '../../api/agentTaskSchemas.js';
import { agentUseCase, ownedCallOf } from './liveCall.js';

/** ATP-19..ATP-21: one declared tool call through Helix's admitted, recording capability handle. */
export const callAgentTool = agentUseCase(
  'agent_task.call_tool',
  CallAgentToolRequestSchema,
  async ({ deps, request, owner, calls }) => {
    const call = await ownedCallOf(deps, calls, owner, request.ownedRef);
    const { receipt, replayed } = await call.callTool(
      request.ownedRef.ownerToken,
      request.toolCallId,
      request.name,
      request.input,
    );
    return { body: { ...receipt, replayed }, replayed };
  },
);
