import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
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
  const checked = CallToolResultSchema.safeParse(result);
  if (!checked.success) {
    const refused = new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
    return { jsonrpc: '2.0', id, error: { code: refused.code, message: refused.message } };
  }
  return { jsonrpc: '2.0', id, result: checked.data };
};
