import { excerpt, helixErrorOf } from '../deploymentProbe/boundedRun.js';
import {
  isObject,
  MCP_SERVER_NAME,
  parseToolText,
  START_TOOL,
  type ProviderWire,
  type ReportedToolCall,
} from './providerInvocation.js';

/**
 * The OpenAI Responses API with Helix as a remote MCP tool (`POST /v1/responses`, tool type
 * `mcp`). OpenAI connects to `server_url` itself, lists the tools (an `mcp_list_tools` output
 * item) and runs the call (an `mcp_call` item whose `output` is the tool's text and whose `error`
 * is a string or a typed `mcp_protocol_error` / `mcp_tool_execution_error` / `http_error`).
 */

/** A typed or plain `mcp_call.error` as one line; a Helix error body inside it is named by its code. */
const describeCallError = (error: unknown): string => {
  if (typeof error === 'string') return error;
  if (!isObject(error)) return String(error);
  if (Array.isArray(error.content)) {
    const text = error.content.map((c: unknown) => (isObject(c) && typeof c.text === 'string' ? c.text : '')).join('');
    return `${String(error.type)}: ${helixErrorOf(parseToolText(text)) ?? excerpt(text)}`;
  }
  return `${String(error.type)}${error.code === undefined ? '' : ` ${String(error.code)}`}: ${excerpt(String(error.message))}`;
};

const reportedCall = (item: Record<string, unknown>): ReportedToolCall =>
  item.error !== undefined && item.error !== null
    ? { error: describeCallError(item.error) }
    : { output: typeof item.output === 'string' ? parseToolText(item.output) : item.output };

/** Why no call happened, as far as the output says: its item types and a tool-listing error. */
const outputContext = (body: Record<string, unknown>, items: readonly Record<string, unknown>[]): string => {
  const listing = items.find((i) => i.type === 'mcp_list_tools');
  const listError =
    listing?.error === undefined || listing.error === null
      ? ''
      : `; mcp_list_tools failed: ${excerpt(String(listing.error))}`;
  return `status ${String(body.status)}; output items: ${items.map((i) => String(i.type)).join(', ') || 'none'}${listError}`;
};

export const openaiResponses: ProviderWire = {
  label: 'OpenAI Responses',
  path: '/v1/responses',
  headers: (key) => ({ authorization: `Bearer ${key}` }),
  body: (plan) => ({
    model: plan.model,
    instructions: plan.instructions,
    input: plan.input,
    tools: [
      {
        type: 'mcp',
        server_label: MCP_SERVER_NAME,
        server_description: 'Helix durable, governed agent runs (conformance probe).',
        server_url: plan.serverUrl,
        authorization: plan.accessToken,
        allowed_tools: [START_TOOL],
        require_approval: 'never',
      },
    ],
    // Force the one call and cap the response at one tool call: the probe's run is one step, once.
    tool_choice: { type: 'mcp', server_label: MCP_SERVER_NAME, name: START_TOOL },
    max_tool_calls: 1,
    parallel_tool_calls: false,
    store: false,
  }),
  read: (body) => {
    const items = (Array.isArray(body.output) ? body.output : []).filter(isObject);
    const calls = items
      .filter((i) => i.type === 'mcp_call' && i.name === START_TOOL && i.server_label === MCP_SERVER_NAME)
      .map(reportedCall);
    const error = isObject(body.error) ? body.error : undefined;
    const failure =
      body.status === 'failed' || error !== undefined
        ? `the response failed${error === undefined ? '' : `: ${String(error.code)} ${excerpt(String(error.message))}`}`
        : undefined;
    return { calls, context: outputContext(body, items), ...(failure === undefined ? {} : { failure }) };
  },
};
