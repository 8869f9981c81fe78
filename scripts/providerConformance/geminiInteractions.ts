import { excerpt } from '../deploymentProbe/boundedRun.js';
import {
  isObject,
  MCP_SERVER_NAME,
  parseToolText,
  START_TOOL,
  type ProviderWire,
  type ReportedToolCall,
} from './providerInvocation.js';

/**
 * The Gemini Interactions API with Helix as a remote MCP server (`POST /v1beta/interactions`,
 * key in `x-goog-api-key`, tool type `mcp_server`, Streamable HTTP only). Gemini connects to
 * `url` itself; the interaction's `steps` hold an `mcp_server_tool_call` (`id`, `name`,
 * `server_name`, `arguments`) and the matching `mcp_server_tool_result` (`call_id`, `result`: text,
 * text/image parts or an object). Interactions answered before May 2026 named `steps` `outputs`.
 */

/** The tool's answer inside a result: a string, text parts, or the MCP result object itself. */
const resultValue = (result: unknown): unknown => {
  if (typeof result === 'string') return parseToolText(result);
  if (Array.isArray(result))
    return parseToolText(
      result.map((part: unknown) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join(''),
    );
  if (isObject(result) && isObject(result.structuredContent)) return result.structuredContent;
  if (isObject(result) && Array.isArray(result.content)) return resultValue(result.content);
  return result;
};

const reportedCall = (call: Record<string, unknown>, steps: readonly Record<string, unknown>[]): ReportedToolCall => {
  const result = steps.find((s) => s.type === 'mcp_server_tool_result' && s.call_id === call.id);
  return result === undefined
    ? { error: 'no mcp_server_tool_result answered the call' }
    : { output: resultValue(result.result) };
};

const errorsOf = (body: Record<string, unknown>): string =>
  Array.isArray(body.errors)
    ? body.errors
        .map((e: unknown) => (isObject(e) ? `${String(e.code)} ${excerpt(String(e.message))}` : String(e)))
        .join('; ')
    : 'no error given';

export const geminiInteractions: ProviderWire = {
  label: 'Gemini Interactions',
  path: '/v1beta/interactions',
  headers: (key) => ({ 'x-goog-api-key': key }),
  body: (plan) => ({
    model: plan.model,
    system_instruction: plan.instructions,
    input: plan.input,
    tools: [
      {
        type: 'mcp_server',
        name: MCP_SERVER_NAME,
        url: plan.serverUrl,
        headers: { Authorization: `Bearer ${plan.accessToken}` },
        allowed_tools: [{ tools: [START_TOOL] }],
      },
    ],
    store: false,
  }),
  read: (body) => {
    const steps = (Array.isArray(body.steps) ? body.steps : Array.isArray(body.outputs) ? body.outputs : []).filter(
      isObject,
    );
    const calls = steps
      .filter((s) => s.type === 'mcp_server_tool_call' && s.name === START_TOOL && s.server_name === MCP_SERVER_NAME)
      .map((call) => reportedCall(call, steps));
    const context = `status ${String(body.status)}; steps: ${steps.map((s) => String(s.type)).join(', ') || 'none'}`;
    return {
      calls,
      context,
      ...(body.status === 'failed' ? { failure: `the interaction failed: ${errorsOf(body)}` } : {}),
    };
  },
};
