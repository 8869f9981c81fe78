/**
 * MCP tools/call throughput: autocannon drives `helix_run_inspect` over POST /mcp, next to the
 * same inspect over REST (GET /api/v1/agent-runs/{run_id}) on the same Helix server, and next to
 * the MCP floor's constant tool (mcpFloorApp.ts), in alternating rounds (throughputRounds.ts).
 * Inspect is a read, so every request can be the same one, against one run started beforehand.
 *
 * MCP reports a failed tool call inside an HTTP 200 (`result.isError`), which autocannon counts as
 * a success; so each endpoint is probed once before and once after the load, and a wrong answer
 * breaks the bench rather than inflating a figure.
 */
import autocannon from 'autocannon';
import { idempotencyKeys, requestHeaders, RUNS_PATH, startRun } from './apiClient.js';
import type { TargetReady } from './childServer.js';
import { MCP_FLOOR_PATH, MCP_FLOOR_TEXT, MCP_FLOOR_TOOL } from './mcpFloorApp.js';
import { measureAlternating, type Load, type LoadShape, type Throughput } from './throughputRounds.js';

export const MCP_LOADS = ['mcpInspect', 'restInspect', 'mcpFloor'] as const;
export type McpLoad = (typeof MCP_LOADS)[number];
export type McpThroughput = Record<McpLoad, Throughput>;

const HELIX_MCP_PATH = '/mcp';
const INSPECT_TOOL = 'helix_run_inspect';

interface Endpoint {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Throws unless the response text is the answer this endpoint should give. */
  readonly check: (status: number, text: string) => void;
}

const toolCallBody = (tool: string, args: Record<string, string>): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } });

// Streamable HTTP: a client must accept both a JSON answer and an SSE stream.
const mcpHeaders = (target: TargetReady): Record<string, string> => ({
  ...requestHeaders(target),
  accept: 'application/json, text/event-stream',
});

interface ToolCallAnswer {
  readonly result?: {
    readonly isError?: boolean;
    readonly structuredContent?: { readonly run_id?: unknown };
    readonly content?: readonly { readonly text?: unknown }[];
  };
}

const expectOk = (name: string, status: number, text: string): ToolCallAnswer => {
  if (status !== 200) throw new Error(`${name}: expected HTTP 200, got ${status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as ToolCallAnswer;
};

/** tools/call helix_run_inspect on Helix's /mcp, checked to answer with the run's snapshot. */
export const mcpInspectEndpoint = (helix: TargetReady, runId: string): Endpoint => ({
  url: `${helix.url}${HELIX_MCP_PATH}`,
  method: 'POST',
  headers: mcpHeaders(helix),
  body: toolCallBody(INSPECT_TOOL, { run_id: runId }),
  check: (status, text) => {
    const { result } = expectOk('MCP inspect', status, text);
    if (result?.isError === true) throw new Error(`MCP inspect: tool error: ${text.slice(0, 300)}`);
    if (result?.structuredContent?.run_id !== runId)
      throw new Error(`MCP inspect: not the run's snapshot: ${text.slice(0, 300)}`);
  },
});

const endpoints = (helix: TargetReady, mcpFloor: TargetReady, runId: string): Record<McpLoad, Endpoint> => ({
  mcpInspect: mcpInspectEndpoint(helix, runId),
  restInspect: {
    url: `${helix.url}${RUNS_PATH}/${encodeURIComponent(runId)}`,
    method: 'GET',
    headers: { authorization: `Bearer ${helix.token}` },
    check: (status, text) => {
      const body = expectOk('REST inspect', status, text) as { run_id?: unknown };
      if (body.run_id !== runId) throw new Error(`REST inspect: not the run's snapshot: ${text.slice(0, 300)}`);
    },
  },
  mcpFloor: {
    url: `${mcpFloor.url}${MCP_FLOOR_PATH}`,
    method: 'POST',
    headers: mcpHeaders(mcpFloor),
    // The same arguments as Helix's call, so both parse a body of the same shape.
    body: toolCallBody(MCP_FLOOR_TOOL, { run_id: runId }),
    check: (status, text) => {
      const { result } = expectOk('MCP floor', status, text);
      if (result?.content?.[0]?.text !== MCP_FLOOR_TEXT)
        throw new Error(`MCP floor: unexpected answer: ${text.slice(0, 300)}`);
    },
  },
});

export const probe = async (endpoint: Endpoint): Promise<void> => {
  const response = await fetch(endpoint.url, {
    method: endpoint.method,
    headers: endpoint.headers,
    body: endpoint.body ?? null,
  });
  endpoint.check(response.status, await response.text());
};

export const loadOf =
  (endpoint: Endpoint, connections: number): Load =>
  (seconds) =>
    autocannon({
      url: endpoint.url,
      connections,
      duration: seconds,
      method: endpoint.method,
      headers: endpoint.headers,
      ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
    });

export const measureMcpThroughput = async (
  targets: { readonly helix: TargetReady; readonly mcpFloor: TargetReady },
  load: LoadShape,
): Promise<McpThroughput> => {
  const run = await startRun(targets.helix, idempotencyKeys('mcp')());
  const byLoad = endpoints(targets.helix, targets.mcpFloor, run.runId);
  for (const name of MCP_LOADS) await probe(byLoad[name]);
  const loads = {} as Record<McpLoad, Load>;
  for (const name of MCP_LOADS) loads[name] = loadOf(byLoad[name], load.connections);
  const throughput = await measureAlternating(MCP_LOADS, loads, load);
  // A server that began refusing mid-load (a rate limit, say) would still have answered HTTP 200.
  for (const name of MCP_LOADS) await probe(byLoad[name]);
  return throughput;
};
