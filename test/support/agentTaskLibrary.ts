// A server whose research library holds the given documents, an agent key for it and an MCP client
// on the Codex agent-task catalog: the agent-task end-to-end tests' world (docs/agent-tasks.md).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ingestPaths } from '../../src/sources/library/ingest.js';
import { startTestHelix, type TestHelix } from './harness.js';
import { connectMcp } from './mcpClient.js';
import type { StoreFlavour } from './stores.js';

export const AGENT_TASK_SCOPES = 'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read';

/** The damping note both agent-task suites search and cite. */
export const DAMPING_DOCUMENT =
  '# Resonance damping\n\nThe resonance damping mechanism reduces vibration amplitude by absorbing energy in a viscoelastic layer bonded to the panel.\n';

export interface AgentTaskLibrary {
  readonly h: TestHelix;
  readonly token: string;
  readonly agent: Client;
  close(): Promise<void>;
}

/** Starts the server with `documents` (file name → Markdown) ingested; fails unless every one is added. */
export const startAgentTaskLibrary = async (
  flavour: StoreFlavour,
  documents: Readonly<Record<string, string>>,
): Promise<AgentTaskLibrary> => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-agent-task-'));
  const library = join(dir, 'library');
  mkdirSync(library);
  for (const [name, text] of Object.entries(documents)) writeFileSync(join(library, name), text);
  const h = await startTestHelix(flavour, { env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library' } });
  const ingested = await ingestPaths(h.testStore.store, [library], Date.now);
  if (ingested.added !== Object.keys(documents).length)
    throw new Error(`expected ${Object.keys(documents).length} documents ingested, got ${ingested.added}`);
  const token = await h.key(AGENT_TASK_SCOPES);
  const agent = await connectMcp(h.url, token, '/mcp/codex');
  return {
    h,
    token,
    agent,
    close: async () => {
      await agent.close();
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
