import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * A loopback stand-in for a provider that calls a remote MCP server on the model's behalf: the
 * OpenAI Responses API (`POST /v1/responses`, tool `mcp`) or the Gemini Interactions API
 * (`POST /v1beta/interactions`, tool `mcp_server`). It checks the request the way the provider
 * would, then really acts as the MCP client (the official SDK over Streamable HTTP) against the
 * `server_url` / `url` with the given authorization, and answers in the provider's wire format.
 *
 * The "model" does what the probe's input says: it calls the one allowed tool with the JSON after
 * `Arguments: `. Modes: `call` (that), `no_call` (lists the tools and only answers in text),
 * `http_error` (the provider refuses the key as it does for a wrong one; OpenAI quotes it masked).
 */
export const FIXTURE_MODES = ['call', 'no_call', 'http_error'] as const;
export type FixtureMode = (typeof FIXTURE_MODES)[number];

export interface RecordedProviderRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: any;
}

export interface McpProviderFixture {
  readonly origin: string;
  readonly requests: RecordedProviderRequest[];
  /** Every way a request broke the provider's rules; the fixture answered 400 for each. */
  readonly problems: string[];
  close(): Promise<void>;
}

interface McpTarget {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly allowed: readonly string[];
}

interface McpOutcome {
  readonly tools: Tool[];
  readonly call?: { readonly name: string; readonly args: Record<string, unknown>; readonly result: CallToolResult };
}

interface Dialect {
  readonly path: string;
  keyOf(headers: IncomingHttpHeaders): string | undefined;
  /** The MCP server the request names, or the rules it breaks. */
  target(body: any): McpTarget | string[];
  error(status: number, message: string): unknown;
  /** How the provider refuses a wrong key: [status, body]. */
  keyRefused(key: string): [number, unknown];
  answer(body: any, outcome: McpOutcome): unknown;
}

const textOf = (result: CallToolResult): string =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

const openai: Dialect = {
  path: '/v1/responses',
  keyOf: (headers) => /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1],
  target: (body) => {
    const tool = body?.tools?.[0];
    const problems: string[] = [];
    if (typeof body?.model !== 'string' || typeof body?.input !== 'string')
      problems.push('model and input must be strings');
    if (body?.tools?.length !== 1 || tool?.type !== 'mcp') problems.push('exactly one tool of type mcp expected');
    if (
      typeof tool?.server_label !== 'string' ||
      typeof tool?.server_url !== 'string' ||
      typeof tool?.authorization !== 'string'
    ) {
      problems.push('server_label, server_url and authorization must be strings');
    }
    if (!isDeepStrictEqual(tool?.allowed_tools, ['helix_run_start']))
      problems.push('allowed_tools must be ["helix_run_start"]');
    if (tool?.require_approval !== 'never') problems.push('require_approval must be "never"');
    if (problems.length > 0) return problems;
    return {
      url: tool.server_url,
      headers: { authorization: `Bearer ${tool.authorization}` },
      allowed: tool.allowed_tools,
    };
  },
  error: (status, message) => ({
    error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null },
  }),
  keyRefused: (key) => [
    401,
    {
      error: {
        message: `Incorrect API key provided: ${key.slice(0, 8)}${'*'.repeat(20)}${key.slice(-4)}.`,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
  ],
  answer: (body, { tools, call }) => ({
    id: 'resp_fixture',
    object: 'response',
    created_at: 1_760_000_000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: body.model,
    output: [
      {
        id: 'mcpl_fixture',
        type: 'mcp_list_tools',
        server_label: body.tools[0].server_label,
        tools: tools.map((t) => ({
          name: t.name,
          description: t.description,
          input_schema: t.inputSchema,
          annotations: t.annotations ?? null,
        })),
        error: null,
      },
      ...(call === undefined
        ? []
        : [
            {
              id: 'mcp_fixture',
              type: 'mcp_call',
              status: call.result.isError === true ? 'failed' : 'completed',
              approval_request_id: null,
              server_label: body.tools[0].server_label,
              name: call.name,
              arguments: JSON.stringify(call.args),
              output: call.result.isError === true ? null : textOf(call.result),
              error:
                call.result.isError === true
                  ? { type: 'mcp_tool_execution_error', content: call.result.content }
                  : null,
            },
          ]),
      {
        id: 'msg_fixture',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
      },
    ],
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  }),
};

const gemini: Dialect = {
  path: '/v1beta/interactions',
  keyOf: (headers) =>
    headers.authorization === undefined ? (headers['x-goog-api-key'] as string | undefined) : undefined,
  target: (body) => {
    const tool = body?.tools?.[0];
    const problems: string[] = [];
    if (typeof body?.model !== 'string' || typeof body?.input !== 'string')
      problems.push('model and input must be strings');
    if (body?.tools?.length !== 1 || tool?.type !== 'mcp_server')
      problems.push('exactly one tool of type mcp_server expected');
    if (typeof tool?.name !== 'string' || !/^[A-Za-z0-9_]+$/.test(tool.name))
      problems.push('name must be a hyphen-free identifier');
    if (typeof tool?.url !== 'string' || !/^Bearer \S+$/.test(tool?.headers?.Authorization ?? ''))
      problems.push('url and headers.Authorization (Bearer) required');
    if (!isDeepStrictEqual(tool?.allowed_tools, [{ tools: ['helix_run_start'] }]))
      problems.push('allowed_tools must be [{ tools: ["helix_run_start"] }]');
    if (problems.length > 0) return problems;
    return { url: tool.url, headers: tool.headers, allowed: tool.allowed_tools[0].tools };
  },
  error: (status, message) => ({
    error: {
      code: status,
      message,
      status: status >= 500 ? 'INTERNAL' : status === 404 ? 'NOT_FOUND' : 'INVALID_ARGUMENT',
    },
  }),
  keyRefused: () => [
    400,
    {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
      },
    },
  ],
  answer: (body, { call }) => ({
    id: 'v1_fixture',
    status: 'completed',
    created: '2026-01-01T00:00:00Z',
    updated: '2026-01-01T00:00:01Z',
    model: body.model,
    steps: [
      { type: 'user_input', content: [{ type: 'text', text: body.input }] },
      ...(call === undefined
        ? []
        : [
            {
              type: 'mcp_server_tool_call',
              id: 'call_fixture',
              name: call.name,
              server_name: body.tools[0].name,
              arguments: call.args,
            },
            {
              type: 'mcp_server_tool_result',
              call_id: 'call_fixture',
              name: call.name,
              server_name: body.tools[0].name,
              result: call.result.content,
            },
          ]),
      { type: 'model_output', content: [{ type: 'text', text: 'Done.' }] },
    ],
    usage: { total_tokens: 2 },
  }),
};

export const DIALECTS = { openai, gemini } as const;

/** Lists the tools and, in `call` mode, calls the allowed one with the arguments the input gives. */
const actAsMcpClient = async (target: McpTarget, input: string, mode: FixtureMode): Promise<McpOutcome> => {
  const client = new Client({ name: 'provider-fixture', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers } }),
  );
  try {
    const tools = (await client.listTools()).tools.filter((t) => target.allowed.includes(t.name));
    if (mode !== 'call') return { tools };
    const args = JSON.parse(/^Arguments: (.*)$/m.exec(input)?.[1] ?? '{}') as Record<string, unknown>;
    const result = (await client.callTool({ name: tools[0]!.name, arguments: args })) as CallToolResult;
    return { tools, call: { name: tools[0]!.name, args, result } };
  } finally {
    await client.close();
  }
};

export const startMcpProviderFixture = async (
  dialectName: keyof typeof DIALECTS,
  key: string,
  mode: FixtureMode,
): Promise<McpProviderFixture> => {
  const dialect = DIALECTS[dialectName];
  const requests: RecordedProviderRequest[] = [];
  const problems: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = (status: number, body: unknown): void =>
        void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.method !== 'POST' || req.url !== dialect.path)
        return reply(404, dialect.error(404, `no route ${req.url}`));
      if (mode === 'http_error' || dialect.keyOf(req.headers) !== key) return reply(...dialect.keyRefused(key));
      const target = dialect.target(body);
      if (Array.isArray(target)) {
        problems.push(...target);
        return reply(400, dialect.error(400, target.join('; ')));
      }
      actAsMcpClient(target, body.input, mode).then(
        (outcome) => reply(200, dialect.answer(body, outcome)),
        (err: unknown) => reply(500, dialect.error(500, `fixture MCP client failed: ${String(err)}`)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    problems,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
