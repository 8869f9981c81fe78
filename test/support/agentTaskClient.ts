import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** One agent-task tool call through the official SDK client: the structured result and whether it failed. */
export const agentTool = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name: `helix_agent_task_${name}`, arguments: args });
  return { isError: result.isError === true, body: result.structuredContent as any };
};

/** Long-polls the agent's pending calls until the run's call appears (the continue that opens it is in flight). */
export const pendingCallOf = async (client: Client, runId: string): Promise<string> => {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const { body } = await agentTool(client, 'list', { runId, waitSeconds: 5 });
    const call = (body.calls as { callId: string; runId: string }[]).find((c) => c.runId === runId);
    if (call !== undefined) return call.callId;
  }
  throw new Error(`no pending agent call for ${runId}`);
};
