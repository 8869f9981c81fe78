import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { Authenticator } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import { ADR_ERROR_NUMBERS, HelixError } from '../../domain/errors.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import type { RunService } from '../../service/runs/runService.js';
import { enforcePrincipalLimit } from '../hardening/rateLimits.js';
import { authenticateRequest } from '../principalHook.js';
import { MCP_PATH, publicOrigin, type ResourceIdentity } from '../resourceIdentity.js';
import { CODEX_METADATA_PATH, DEVICE_CHECK_METADATA_PATH } from '../wellKnown.js';
import { answerDirectly, type ToolHandlers } from './directAnswer.js';
import { envelopeIsAcceptable, INVALID_ENVELOPE } from './preflight.js';
import type { ToolCallContext, ToolCatalog } from './toolCatalog.js';
import { HELIX_VERSION } from '../../version.js';

export const MCP_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';
/** DC-02, D-03: the Device Check server, whose catalog is that one tool. */
export const DEVICE_CHECK_MCP_PATH = '/mcp/device-check';
/** ATP-02: the same tools and handlers as `/mcp`, with the Codex presentation profile. */
export const CODEX_MCP_PATH = '/mcp/codex';

const SERVER_INFO = { name: 'helix', title: 'Helix durable agent runs', version: HELIX_VERSION };
const INSTRUCTIONS =
  'Helix runs a bounded research objective one governed turn at a time. Start with helix_run_start, then call ' +
  'helix_run_continue with the current version while recommended_next_action says continue or answer_pending_questions; ' +
  'broaden_scope means the admitted sources do not hold the answer (start a run with more data scopes, or ask differently); ' +
  'stop on completed, failed, budget_exhausted or cancelled. Results are observations, never answer authority.';
/** ATP-14: every full catalog has the agent-task tools. */
const AGENT_TASK_INSTRUCTIONS =
  ' Agent tasks: a run started with turn_executor "agent_task" hands each turn to you: helix_agent_task_list shows pending ' +
  'calls, helix_agent_task_claim gives you the task, helix_agent_task_call_tool runs its declared tools one at a time, ' +
  'helix_agent_task_complete submits the final JSON and returns the run to follow.';
/** ATP-02: the Codex presentation profile's own guidance. */
const CODEX_INSTRUCTIONS =
  ' Codex: when the user asks you to work a Helix turn, long-poll helix_agent_task_list (waitSeconds 25), claim with a ' +
  'claimId you keep, work only through the declared tools, complete once, and report the returned run.';
/** Added when the catalog has the room tools. */
const ROOM_INSTRUCTIONS =
  ' Shared Live Rooms: helix_room_list and helix_room_inspect show your rooms; helix_room_bind_run binds one of your runs ' +
  'to a room whose current consent version you accepted; helix_room_unbind_run withdraws it.';

/** The Device Check server's instructions: it knows nothing of runs or the room catalog (DC-03). */
const DEVICE_CHECK_INSTRUCTIONS =
  'Helix Device Check: helix_environment_device_check reports, check by check, whether the environment sources of ' +
  'your rooms (for example a Minecraft connector) are credentialed, admitted, connected and delivering fresh observations.';

/** Which MCP server: the full one at `/mcp`, or the Device Check server at `/mcp/device-check`. */
export type McpServerKind = 'full' | 'codex' | 'device_check';

const MOUNTS = {
  full: { path: MCP_PATH, metadataPath: MCP_METADATA_PATH },
  codex: { path: CODEX_MCP_PATH, metadataPath: CODEX_METADATA_PATH },
  device_check: { path: DEVICE_CHECK_MCP_PATH, metadataPath: DEVICE_CHECK_METADATA_PATH },
} as const satisfies Record<McpServerKind, { path: string; metadataPath: string }>;

export interface McpRouteOptions {
  /** Defaults to `full`. */
  readonly kind?: McpServerKind;
  readonly service: RunService;
  /** The room facade behind the `helix_room_*` tools; undefined when the catalog has none. */
  readonly rooms: RoomDeps | undefined;
  readonly authenticator: Authenticator;
  readonly catalog: ToolCatalog;
  readonly identity: ResourceIdentity;
  readonly bodyLimitBytes: number;
}

/** What the server's presentation depends on: which server, and whether it has the room tools. */
type Presentation = Pick<McpRouteOptions, 'kind' | 'rooms'>;

const instructionsOf = (options: Presentation): string => {
  if (options.kind === 'device_check') return DEVICE_CHECK_INSTRUCTIONS;
  const rooms = options.rooms === undefined ? '' : ROOM_INSTRUCTIONS;
  const codex = options.kind === 'codex' ? CODEX_INSTRUCTIONS : '';
  return `${INSTRUCTIONS}${AGENT_TASK_INSTRUCTIONS}${rooms}${codex}`;
};

/**
 * One JSON Schema validator for every request: the SDK would otherwise build (and compile into) a
 * new Ajv instance per Server, which was the largest per-request cost under load.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** The caller's tool handlers: the shared tool table, called as this principal. */
const handlersFor = (options: McpRouteOptions, principal: Principal, context: ToolCallContext): ToolHandlers => ({
  listTools: () => ({ tools: [...options.catalog.tools] }),
  callTool: (request) =>
    options.catalog.call(
      { runs: options.service, rooms: options.rooms },
      principal,
      request.params.name,
      request.params.arguments,
      context,
    ),
});

/** A fresh SDK server per request (stateless Streamable HTTP in SDK 1.x) over the same handlers. */
const serverFor = (options: Presentation, handlers: ToolHandlers): Server => {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: instructionsOf(options),
    jsonSchemaValidator: SHARED_VALIDATOR,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => handlers.listTools());
  server.setRequestHandler(CallToolRequestSchema, async (request) => handlers.callTool(request));
  return server;
};

/** The SDK's answer to one request: its transport and server, built for this request and closed after it. */
export const answerWithSdk = async (
  options: Presentation,
  handlers: ToolHandlers,
  path: string,
  headers: Headers,
  body: unknown,
): Promise<Response> => {
  const server = serverFor(options, handlers);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true }); // no sessionIdGenerator: stateless;
  await server.connect(transport);
  try {
    return await transport.handleRequest(new Request(`http://helix${path}`, { method: 'POST', headers }), {
      parsedBody: body,
    });
  } finally {
    await server.close();
  }
};

/** Headers the SDK transport needs; clients that only accept JSON are served JSON rather than a 406. */
const transportHeaders = (request: FastifyRequest): Headers => {
  const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
  const version = request.headers['mcp-protocol-version'];
  if (typeof version === 'string') headers.set('mcp-protocol-version', version);
  return headers;
};

/**
 * An unsupported MCP-Protocol-Version is ADR-0004's `version_mismatch` (-32009), with the versions
 * this server speaks so the client can fall back. The SDK would quote the header back; this
 * answer is fixed.
 */
const UNSUPPORTED_VERSION = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: ADR_ERROR_NUMBERS.version_mismatch,
    message: 'version_mismatch: unsupported MCP-Protocol-Version',
    data: { supported: SUPPORTED_PROTOCOL_VERSIONS },
  },
} as const;

/** The methods this server implements; the SDK answers any other with -32601. */
const IMPLEMENTED_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'notifications/initialized',
  'notifications/cancelled',
]);

const supportedVersion = (request: FastifyRequest): boolean => {
  const version = request.headers['mcp-protocol-version'];
  return version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version));
};

/**
 * A method this server does not implement is answered as JSON-RPC says, -32601 "Method not
 * found", whatever protocol version the request names: a newer client probing with
 * `server/discover` (MCP 2026-07-28) learns to fall back to `initialize` instead of getting a 400.
 * The id was checked by the envelope preflight, so echoing it is safe.
 */
const methodNotFound = (body: unknown) => {
  const { id, method } = body as { id?: string | number; method: string };
  if (IMPLEMENTED_METHODS.has(method)) return undefined;
  return id === undefined
    ? 'notification'
    : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
};

const handleMcp = async (options: McpRouteOptions, request: FastifyRequest, reply: FastifyReply) => {
  const principal = await authenticateRequest(options.authenticator, request);
  request.principalId = principal.credentialId;
  enforcePrincipalLimit(request, principal, 'mcp');
  if (!envelopeIsAcceptable(request.body)) return reply.code(400).send(INVALID_ENVELOPE);
  const unknownMethod = methodNotFound(request.body);
  if (unknownMethod === 'notification') return reply.code(202).send();
  if (unknownMethod !== undefined) return reply.code(200).send(unknownMethod);
  if (!supportedVersion(request)) return reply.code(400).send(UNSUPPORTED_VERSION);
  const mount = MOUNTS[options.kind ?? 'full'];
  const metadataUrl = `${publicOrigin(request, options.identity)}${mount.metadataPath}`;
  const handlers = handlersFor(options, principal, {
    resourceMetadataUrl: metadataUrl,
    logUnexpected: (err) =>
      request.log.error(
        { err: { message: (err as Error)?.message, stack: (err as Error)?.stack } },
        'unhandled error in an MCP tool call',
      ),
  });
  const direct = await answerDirectly(request.body, handlers);
  if (direct !== undefined) return reply.code(200).type(JSON_TYPE).send(JSON.stringify(direct));
  const response = await answerWithSdk(options, handlers, mount.path, transportHeaders(request), request.body);
  const text = await response.text();
  reply.code(response.status);
  if (text === '') return reply.send();
  return reply.type(JSON_TYPE).send(text);
};

const JSON_TYPE = 'application/json; charset=utf-8';

export const registerMcpRoute = (app: FastifyInstance, options: McpRouteOptions): void => {
  const { path } = MOUNTS[options.kind ?? 'full'];
  app.post(path, { bodyLimit: options.bodyLimitBytes }, (request, reply) => handleMcp(options, request, reply));
  // Stateless: no SSE stream to GET and no session to DELETE.
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'],
    url: path,
    handler: async (_request, reply) => {
      reply.header('Allow', 'POST');
      throw new HelixError('method_not_allowed');
    },
  });
};
