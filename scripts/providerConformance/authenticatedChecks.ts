import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeFailure, readBoundedText, type ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { check, type Check } from '../deploymentProbe/report.js';
import { mcpSession } from './mcpSession.js';

/** The contract's core durable-run tools and the OAuth scope each must declare ("MCP surface"). */
export const RUN_TOOLS = [
  { name: 'helix_run_start', scope: 'helix.agent_runs.write' },
  { name: 'helix_run_continue', scope: 'helix.agent_runs.write' },
  { name: 'helix_run_cancel', scope: 'helix.agent_runs.write' },
  { name: 'helix_run_inspect', scope: 'helix.agent_runs.read' },
  { name: 'helix_run_fetch_evidence', scope: 'helix.agent_runs.read' },
  { name: 'helix_run_list_events', scope: 'helix.agent_runs.read' },
] as const;

const IDS = {
  initialize: 'mcp.authenticated_initialize',
  toolsList: 'mcp.tools_list',
  securitySchemes: 'mcp.tools_security_schemes',
} as const;
const MAX_PAGES = 10;

/** Whether the token passed initialize: nothing else authenticated is worth attempting otherwise. */
export const initializePassed = (checks: readonly Check[]): boolean =>
  checks.some((c) => c.id === IDS.initialize && c.status === 'passed');

export const notConfiguredChecks = (variable: string): Check[] =>
  Object.values(IDS).map((id) => check(id, 'not_configured', `set ${variable} to run the authenticated checks`));

const outputSchemaProblems = (tools: readonly Tool[]): string[] =>
  RUN_TOOLS.flatMap(({ name }) => {
    const tool = tools.find((t) => t.name === name);
    if (tool === undefined) return [`${name} is not listed`];
    return tool.outputSchema?.type === 'object' ? [] : [`${name} has no object outputSchema`];
  });

/** The SDK client keeps only fields it knows; securitySchemes needs the wire JSON. */
const jsonRpcResult = async (response: Response, id: number): Promise<unknown> => {
  const text = await readBoundedText(response);
  if (response.status !== 200) throw new Error(`tools/list answered HTTP ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  // A Streamable HTTP server may answer with an SSE stream; the response is one of its data events.
  const messages = /^text\/event-stream\b/i.test(type)
    ? text
        .split(/\r?\n\r?\n/)
        .map((event) =>
          event
            .split(/\r?\n/)
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trimStart())
            .join('\n'),
        )
        .filter((data) => data !== '')
    : [text];
  for (const message of messages) {
    const parsed = JSON.parse(message) as { id?: unknown; result?: unknown; error?: { message?: unknown } };
    if (parsed.id !== id) continue;
    if (parsed.error !== undefined)
      throw new Error(`tools/list returned a JSON-RPC error: ${String(parsed.error.message)}`);
    return parsed.result;
  }
  throw new Error('tools/list answered no JSON-RPC response');
};

/** Every tool `path` lists, as wire JSON (the SDK client drops fields such as securitySchemes). */
export const rawToolsList = async (
  ctx: ProbeContext,
  token: string,
  protocolVersion: string,
  path = '/mcp',
): Promise<Record<string, unknown>[]> => {
  const tools: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const response = await ctx.fetch(`${ctx.target}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': protocolVersion,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: page,
        method: 'tools/list',
        ...(cursor === undefined ? {} : { params: { cursor } }),
      }),
    });
    const result = (await jsonRpcResult(response, page)) as { tools?: unknown; nextCursor?: unknown } | undefined;
    if (!Array.isArray(result?.tools)) throw new Error('tools/list result has no tools array');
    tools.push(...(result.tools as Record<string, unknown>[]));
    if (typeof result.nextCursor !== 'string') return tools;
    cursor = result.nextCursor;
  }
  throw new Error(`tools/list did not end within ${MAX_PAGES} pages`);
};

/** True when some oauth2 scheme in the list declares the scope. */
export const declaresScope = (schemes: unknown, scope: string): boolean =>
  Array.isArray(schemes) &&
  schemes.some(
    (s: { type?: unknown; scopes?: unknown }) =>
      s?.type === 'oauth2' && Array.isArray(s.scopes) && s.scopes.includes(scope),
  );

/** Contract: the standard `securitySchemes` field and the compatibility `_meta.securitySchemes` both. */
const securitySchemeProblems = (tools: readonly Record<string, unknown>[]): string[] =>
  RUN_TOOLS.flatMap(({ name, scope }) => {
    const tool = tools.find((t) => t.name === name);
    if (tool === undefined) return [`${name} is not listed`];
    const meta = tool._meta as { securitySchemes?: unknown } | undefined;
    const problems: string[] = [];
    if (!declaresScope(tool.securitySchemes, scope))
      problems.push(`${name} securitySchemes lacks oauth2 scope ${scope}`);
    if (!declaresScope(meta?.securitySchemes, scope))
      problems.push(`${name} _meta.securitySchemes lacks oauth2 scope ${scope}`);
    return problems;
  });

const listAllTools = async (client: Client, timeout: number): Promise<Tool[]> => {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
    tools.push(...result.tools);
    if (result.nextCursor === undefined) return tools;
    cursor = result.nextCursor;
  }
  throw new Error(`tools/list did not end within ${MAX_PAGES} pages`);
};

/** initialize and tools/list with the official SDK client, then one raw tools/list for the fields the SDK does not surface. */
export const authenticatedChecks = async (ctx: ProbeContext, token: string, timeoutMs: number): Promise<Check[]> => {
  const { client, transport } = mcpSession(ctx, token);
  try {
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (err) {
      const detail = `initialize failed: ${describeFailure(err)}`;
      return [
        check(IDS.initialize, 'failed', detail),
        check(IDS.toolsList, 'skipped', 'initialize failed'),
        check(IDS.securitySchemes, 'skipped', 'initialize failed'),
      ];
    }
    const server = client.getServerVersion();
    const protocolVersion = transport.protocolVersion ?? LATEST_PROTOCOL_VERSION;
    const initialize =
      client.getServerCapabilities()?.tools === undefined
        ? check(IDS.initialize, 'failed', 'initialize succeeded but the server advertises no tools capability')
        : check(
            IDS.initialize,
            'passed',
            `server ${server?.name ?? '?'} ${server?.version ?? '?'}, protocol ${protocolVersion}`,
          );

    let toolsList: Check;
    try {
      const problems = outputSchemaProblems(await listAllTools(client, timeoutMs));
      toolsList =
        problems.length === 0
          ? check(IDS.toolsList, 'passed', `all ${RUN_TOOLS.length} run tools listed, each with an outputSchema`)
          : check(IDS.toolsList, 'failed', problems.join('; '));
    } catch (err) {
      toolsList = check(IDS.toolsList, 'failed', `tools/list failed: ${describeFailure(err)}`);
    }

    let schemes: Check;
    try {
      const problems = securitySchemeProblems(await rawToolsList(ctx, token, protocolVersion));
      schemes =
        problems.length === 0
          ? check(
              IDS.securitySchemes,
              'passed',
              'every run tool declares its oauth2 scope in securitySchemes and _meta.securitySchemes',
            )
          : check(IDS.securitySchemes, 'failed', problems.join('; '));
    } catch (err) {
      schemes = check(IDS.securitySchemes, 'failed', describeFailure(err));
    }
    return [initialize, toolsList, schemes];
  } finally {
    await client.close().catch(() => undefined);
  }
};
