import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { answerDirectly, type ToolHandlers } from './directAnswer.js';
import { answerWithSdk } from './mcpRoute.js';

const TOOL = {
  name: 'helix_run_inspect',
  description: 'Inspect a run',
  inputSchema: { type: 'object' as const, properties: { run_id: { type: 'string' } } },
};

/** Handlers whose tools/call answers whatever the test names in the tool's `answer` argument. */
const handlers: ToolHandlers = {
  listTools: () => ({ tools: [TOOL] }),
  callTool: async (request) => {
    const answer = request.params.arguments?.answer;
    if (answer === 'error') return { isError: true, content: [{ type: 'text', text: '{"error":"run_not_found"}' }] };
    if (answer === 'malformed') return { content: 'not a list' } as unknown as CallToolResult;
    // Near the edge of the catalog's own shape: each of these takes the schema's path, not the fast one.
    if (answer === 'extra block key')
      return { content: [{ type: 'text', text: 'x', stray: 1 }] } as unknown as CallToolResult;
    if (answer === 'extra result key') return { content: [], stray: true } as unknown as CallToolResult;
    if (answer === 'array structured content')
      return { content: [], structuredContent: [1, 2] } as unknown as CallToolResult;
    if (answer === 'bad progress token')
      return { content: [], _meta: { progressToken: { not: 'a token' } } } as unknown as CallToolResult;
    if (answer === 'replayed')
      return {
        content: [{ type: 'text', text: '{"run_id":"run_1"}' }],
        structuredContent: { run_id: 'run_1', nested: { list: [1, null, 'two'] } },
        _meta: { 'helix/idempotency_replayed': true },
      };
    return {
      content: [{ type: 'text', text: '{"run_id":"run_1"}' }],
      structuredContent: { run_id: 'run_1', version: 3 },
    };
  },
};

const HEADERS = () =>
  new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });

const sdkAnswer = async (body: unknown): Promise<unknown> => {
  const response = await answerWithSdk({ kind: 'full', rooms: undefined }, handlers, '/mcp', HEADERS(), body);
  return response.json();
};

const call = (id: string | number, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'helix_run_inspect', arguments: args },
});

describe('MCP tools/call and tools/list answered without a per-request SDK server (issue 19)', () => {
  it.each([
    ['tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['a successful call', call(2, { run_id: 'run_1' })],
    ['a call with a string id', call('a-7', { run_id: 'run_1' })],
    ['a tool error', call(3, { answer: 'error' })],
    ['a result the SDK schema refuses', call(4, { answer: 'malformed' })],
    ['a text block with a key the schema strips', call(5, { answer: 'extra block key' })],
    ['a result with a key of its own', call(6, { answer: 'extra result key' })],
    ['structured content that is an array', call(7, { answer: 'array structured content' })],
    ['a _meta the schema types and refuses', call(8, { answer: 'bad progress token' })],
    ['a replayed call with nested structured content', call(9, { answer: 'replayed' })],
  ])('answers %s exactly as the SDK server does', async (_name, body) => {
    const direct = await answerDirectly(body, handlers);
    expect(direct).toBeDefined();
    expect(JSON.parse(JSON.stringify(direct))).toEqual(await sdkAnswer(body));
  });

  it.each([
    ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } }],
    ['ping', { jsonrpc: '2.0', id: 1, method: 'ping' }],
    ['a call without a tool name', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } }],
    [
      'a task-augmented call',
      { ...call(1, {}), params: { name: 'helix_run_inspect', arguments: {}, task: { ttl: 1000 } } },
    ],
    ['a tools/call notification', { jsonrpc: '2.0', method: 'tools/call', params: { name: 'helix_run_inspect' } }],
  ])('leaves %s to the SDK', async (_name, body) => {
    expect(await answerDirectly(body, handlers)).toBeUndefined();
  });
});
