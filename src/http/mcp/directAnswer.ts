import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type CallToolRequest,
  type CallToolResult,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';

/** The two handlers the MCP server registers (mcpRoute.ts), shared by both ways of answering. */
export interface ToolHandlers {
  listTools(): ListToolsResult;
  callTool(request: CallToolRequest): Promise<CallToolResult>;
}

type RequestId = string | number;

export interface JsonRpcAnswer {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

/**
 * `tools/call` and `tools/list`, the requests that carry the load, answered without building an SDK
 * server and transport for the one request (stateless Streamable HTTP builds both per request, and
 * they cost more than the call itself). The request is validated with the SDK's own schema and the
 * result exactly as the SDK's server validates it, so the answer is the one the SDK would give.
 * Anything else (initialize, ping, a task-augmented call, a request its schema refuses) returns
 * undefined and takes the SDK path, so its errors and negotiation stay the SDK's.
 */
export const answerDirectly = async (body: unknown, handlers: ToolHandlers): Promise<JsonRpcAnswer | undefined> => {
  const { method, id: given } = body as { method?: unknown; id?: unknown };
  // A notification (no id) is not answered with a result: the SDK path decides what it gets.
  if (given === undefined) return undefined;
  if (method === 'tools/list') {
    const parsed = ListToolsRequestSchema.safeParse(body);
    if (!parsed.success) return undefined;
    return { jsonrpc: '2.0', id: given as RequestId, result: handlers.listTools() };
  }
  if (method !== 'tools/call') return undefined;
  const parsed = CallToolRequestSchema.safeParse(body);
  if (!parsed.success || parsed.data.params.task !== undefined) return undefined;
  const id = given as RequestId;
  let result: CallToolResult;
  try {
    result = await handlers.callTool(parsed.data);
  } catch {
    // The catalog answers every failure as a tool result; this is only a net, and it says nothing of the cause.
    return { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'Internal error' } };
  }
  if (passesUnchanged(result)) return { jsonrpc: '2.0', id, result };
  const checked = CallToolResultSchema.safeParse(result);
  if (!checked.success) {
    const refused = new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
    return { jsonrpc: '2.0', id, error: { code: refused.code, message: refused.message } };
  }
  return { jsonrpc: '2.0', id, result: checked.data };
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const RESULT_KEYS: ReadonlySet<string> = new Set(['content', 'structuredContent', 'isError', '_meta']);

/** A text block exactly: `type` and `text`, nothing the schema would check further or strip. */
const isTextBlock = (block: unknown): boolean =>
  isPlainObject(block) && block.type === 'text' && typeof block.text === 'string' && Object.keys(block).length === 2;

/**
 * The shape of every result the catalog builds (toolResult.ts): text blocks only, structured
 * content that is an object, an optional isError flag, and _meta without the two keys the schema
 * types. CallToolResultSchema accepts such a result and returns it unchanged, so it is answered as
 * it is; any other result (an image block, an extra key the schema would strip, a malformed one)
 * still goes through the schema. Checking a run view of thirty fields with the schema cost a
 * tenth of an MCP inspect (issue 19).
 */
const passesUnchanged = (result: CallToolResult): boolean => {
  for (const key of Object.keys(result)) if (!RESULT_KEYS.has(key)) return false;
  const { content, structuredContent, isError, _meta } = result as Record<string, unknown>;
  return (
    Array.isArray(content) &&
    content.every(isTextBlock) &&
    (structuredContent === undefined || isPlainObject(structuredContent)) &&
    (isError === undefined || typeof isError === 'boolean') &&
    (_meta === undefined || (isPlainObject(_meta) && !('progressToken' in _meta) && !(RELATED_TASK_META_KEY in _meta)))
  );
};
