import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectMcp } from '../../test/support/mcpClient.js';
import type { StoreFlavour } from '../../test/support/stores.js';
import { ALL_RUN_SCOPES, startTestHelix } from '../../test/support/testHelix.js';
import type { CallOperation } from './agentTaskCalls.js';
import { agentTaskWorkload } from './agentTaskWorkload.js';
import { Random } from './random.js';

export interface AgentTaskScenarioOptions {
  /** Agents (one official SDK MCP client each) racing for every call. */
  readonly agents: number;
  /** Calls in play at once. */
  readonly slots: number;
  readonly durationMs: number;
  readonly seed: number;
}

/** Turns wait up to a minute for their agent; MCP and REST limits off for the one racing client. */
const ENV = {
  HELIX_AGENT_TURN_TIMEOUT_MS: '60000',
  HELIX_MCP_IP_RATE_LIMIT: '0',
  HELIX_MCP_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
};

/**
 * A Helix in this process on a fresh `flavour` store and `agents` MCP clients that race to claim,
 * complete, release and read agent-task calls (scripts/history/agentTaskWorkload.ts). Answers the
 * history and how many calls it opened.
 */
export const recordAgentTasks = async (
  flavour: StoreFlavour,
  options: AgentTaskScenarioOptions,
): Promise<{ history: CallOperation[]; calls: number }> => {
  const h = await startTestHelix(flavour, { env: ENV });
  const agents: Client[] = [];
  try {
    const token = await h.key(ALL_RUN_SCOPES);
    for (let i = 0; i < options.agents; i++) agents.push(await connectMcp(h.url, token));
    return await agentTaskWorkload(
      { url: h.url, token, agents },
      {
        slots: options.slots,
        durationMs: options.durationMs,
        timeoutMs: 10_000,
        settleAfterMs: 1_500,
        random: new Random(options.seed),
      },
    );
  } finally {
    for (const agent of agents) await agent.close();
    await h.close();
  }
};
