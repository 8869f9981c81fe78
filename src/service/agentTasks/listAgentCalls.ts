import { ListAgentCallsRequestSchema } from '../../api/agentTaskSchemas.js';
import { agentUseCase } from './liveCall.js';

/** The owner's pending agent calls (ATP-16: `callId` is the pending call's id); optionally a long poll. */
export const listAgentCalls = agentUseCase(
  'agent_task.list',
  ListAgentCallsRequestSchema,
  async ({ request, owner, calls }) => {
    const pending = await calls.waitForPending(owner.ownerHash, request.waitSeconds * 1000);
    const listed = pending.filter((c) => request.runId === undefined || c.runId === request.runId);
    return {
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
  },
);
