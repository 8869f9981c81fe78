import { afterEach, describe, expect, it } from 'vitest';
import {
  startScriptedChatServer,
  type ChatStep,
  type ScriptedChatServer,
} from '../../../test/support/scriptedChatServer.js';
import { generate, type ModelRequest, type ModelStreamEvent } from '../port.js';
import type { RetryOptions } from '../retry.js';
import { ChatCompletionsClient } from './chatCompletions.js';
import { rejectsWithModelError } from '../../../test/support/modelErrors.js';

const KEY = 'sk-local-test-key-0123456789';
let server: ScriptedChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const setup = async (steps: ChatStep[], options: RetryOptions = {}) => {
  server = await startScriptedChatServer(steps);
  const sleeps: number[] = [];
  const client = new ChatCompletionsClient({
    baseUrl: server.url,
    apiKey: KEY,
    retry: { sleep: async (ms) => void sleeps.push(ms), ...options },
  });
  return { server, client, sleeps };
};

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'scripted-model',
  instructions: 'You are a test.',
  input: [{ type: 'message', role: 'user', text: 'hello' }],
  tools: [
    {
      name: 'lookup',
      description: 'Look something up.',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
    },
  ],
  signal: new AbortController().signal,
  ...overrides,
});

describe('ChatCompletionsClient', () => {
  it('streams text deltas and maps usage, sending the wire request local servers expect', async () => {
    const { server, client } = await setup([
      {
        kind: 'text',
        text: 'The answer is forty-two.',
        usage: {
          prompt_tokens: 50,
          completion_tokens: 9,
          total_tokens: 59,
          prompt_tokens_details: { cached_tokens: 32 },
          completion_tokens_details: { reasoning_tokens: 4 },
        },
      },
    ]);
    const events: ModelStreamEvent[] = [];
    for await (const event of client.stream(request())) events.push(event);
    const deltas = events.filter((e) => e.type === 'text_delta').map((e) => (e as { delta: string }).delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('The answer is forty-two.');
    const completed = events.at(-1);
    expect(completed?.type).toBe('completed');
    if (completed?.type !== 'completed') return;
    expect(completed.response.output).toEqual([
      { type: 'message', role: 'assistant', text: 'The answer is forty-two.' },
    ]);
    expect(completed.response.usage).toEqual({
      inputTokens: 50,
      cachedInputTokens: 32,
      cacheWriteTokens: 0,
      outputTokens: 9,
      reasoningTokens: 4,
      totalTokens: 59,
    });

    const [sent] = server.requests;
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toMatchObject({
      model: 'scripted-model',
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: 'auto',
      messages: [
        { role: 'system', content: 'You are a test.' },
        { role: 'user', content: 'hello' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'lookup', description: 'Look something up.', parameters: { type: 'object' } },
        },
      ],
    });
  });

  it('reassembles tool-call arguments split across chunks, for parallel calls in index order', async () => {
    const args1 = JSON.stringify({ q: 'resonance damping mechanism', limit: 5 });
    const args2 = JSON.stringify({ q: 'calibration drift' });
    const { client } = await setup([
      {
        kind: 'tool_calls',
        reasoning: 'secret chain of thought',
        calls: [
          { id: 'call_a', name: 'lookup', arguments: args1 },
          { id: 'call_b', name: 'lookup', arguments: args2 },
        ],
      },
    ]);
    const response = await generate(client, request());
    expect(response.output).toEqual([
      { type: 'function_call', callId: 'call_a', name: 'lookup', arguments: args1 },
      { type: 'function_call', callId: 'call_b', name: 'lookup', arguments: args2 },
    ]);
    expect(JSON.stringify(response)).not.toContain('secret chain of thought');
  });

  it('sends function calls on one assistant message, outputs as tool messages, and drops reasoning items', async () => {
    const { server, client } = await setup([{ kind: 'text', text: 'ok' }]);
    await generate(
      client,
      request({
        input: [
          { type: 'message', role: 'user', text: 'q' },
          { type: 'reasoning', provider: 'openai-responses', opaque: { encrypted_content: 'opaque-blob' } },
          { type: 'function_call', callId: 'c1', name: 'lookup', arguments: '{"q":"a"}' },
          { type: 'function_call', callId: 'c2', name: 'lookup', arguments: '{"q":"b"}' },
          { type: 'function_call_output', callId: 'c1', output: '{"hits":[]}' },
          { type: 'function_call_output', callId: 'c2', output: '{"hits":[1]}' },
        ],
      }),
    );
    const messages = server.requests[0]?.body.messages;
    expect(messages).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"a"}' } },
          { id: 'c2', type: 'function', function: { name: 'lookup', arguments: '{"q":"b"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"hits":[]}' },
      { role: 'tool', tool_call_id: 'c2', content: '{"hits":[1]}' },
    ]);
    expect(JSON.stringify(server.requests[0]?.body)).not.toContain('opaque-blob');
  });

  it('a stream that ends before [DONE] or a finish_reason is a protocol error, not an answer', async () => {
    const cut = 'data: {"id":"x","choices":[{"index":0,"delta":{"content":"half an ans"},"finish_reason":null}]}\n\n';
    const { client } = await setup([{ kind: 'raw', chunks: [cut] }], { maxAttempts: 1 });
    expect((await rejectsWithModelError(generate(client, request()))).kind).toBe('protocol');
  });

  it('a chunk that is not JSON is a protocol error; an in-stream error object is typed', async () => {
    const { client } = await setup(
      [
        { kind: 'raw', chunks: ['data: {not json\n\n'] },
        { kind: 'raw', chunks: ['data: {"error":{"message":"maximum context length is 4096 tokens"}}\n\n'] },
      ],
      { maxAttempts: 1 },
    );
    expect((await rejectsWithModelError(generate(client, request()))).kind).toBe('protocol');
    expect((await rejectsWithModelError(generate(client, request()))).kind).toBe('context_length');
  });

  it('finish_reason length is incomplete: truncated tool arguments are never acted on', async () => {
    const raw = [
      'data: {"choices":[{"index":0,"delta":{"content":"cut"},"finish_reason":"length"}]}\n\n',
      'data: [DONE]\n\n',
    ];
    const { client } = await setup([{ kind: 'raw', chunks: raw }]);
    expect((await rejectsWithModelError(generate(client, request()))).kind).toBe('incomplete');
  });

  it('maps HTTP failures to typed kinds and never echoes the key', async () => {
    const reflect = { error: { message: `bad key ${KEY}`, type: 'invalid_api_key' } };
    const { client } = await setup(
      [
        { kind: 'http_error', status: 401, body: reflect },
        {
          kind: 'http_error',
          status: 400,
          body: { error: { message: 'the request exceeds the available context size, try increasing it' } },
        },
        {
          kind: 'http_error',
          status: 400,
          body: { error: { message: `unknown field, key was ${KEY}`, code: 'invalid_request_error' } },
        },
        { kind: 'http_error', status: 404, body: 'model not found' },
        // An identifier-shaped key passes the code filter; only masking the known key keeps it out.
        { kind: 'http_error', status: 403, body: { error: { code: KEY, type: KEY } } },
      ],
      { maxAttempts: 1 },
    );
    const kinds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const error = await rejectsWithModelError(generate(client, request()));
      kinds.push(error.kind);
      expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(KEY);
    }
    expect(kinds).toEqual(['auth', 'context_length', 'bad_request', 'bad_request', 'auth']);
  });

  it('retries 429 and 5xx with the stated retry-after, then gives up with the attempt count', async () => {
    const { client, sleeps, server } = await setup([
      { kind: 'http_error', status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '2' } },
      { kind: 'http_error', status: 503, body: { error: { message: 'loading model' } } },
      { kind: 'text', text: 'recovered' },
      { kind: 'http_error', status: 429, body: {} },
      { kind: 'http_error', status: 429, body: {} },
      { kind: 'http_error', status: 429, body: {} },
    ]);
    const response = await generate(client, request());
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'recovered' }]);
    expect(sleeps[0]).toBe(2000); // the stated retry-after wins
    expect(sleeps[1]).toBeGreaterThanOrEqual(500); // then the jittered backoff's first step
    expect(sleeps[1]).toBeLessThanOrEqual(1000);
    const error = await rejectsWithModelError(generate(client, request()));
    expect(error.kind).toBe('rate_limited');
    expect(error.details).toMatchObject({ retryable: true, httpStatus: 429, attempts: 3 });
    expect(server.requests).toHaveLength(6);
  });

  it('a redirect is refused rather than followed', async () => {
    const { client, server } = await setup([
      { kind: 'http_error', status: 307, body: {}, headers: { location: 'http://127.0.0.1:1/elsewhere' } },
    ]);
    expect((await rejectsWithModelError(generate(client, request()))).kind).toBe('protocol');
    expect(server.requests).toHaveLength(1);
  });

  it('an abort mid-stream rejects with aborted and closes the connection', async () => {
    const { client, server } = await setup([{ kind: 'hang' }]);
    const controller = new AbortController();
    const pending = rejectsWithModelError(generate(client, request({ signal: controller.signal })));
    while (server.requests.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort(new Error('cancelled'));
    expect((await pending).kind).toBe('aborted');
    await server.requests[0]?.settled;
    expect(server.requests[0]?.clientAborted).toBe(true);
  });

  it('lists models from GET /models', async () => {
    const { client } = await setup([]);
    const models = await client.listModels(new AbortController().signal);
    expect(models.map((m) => m.id)).toEqual(['scripted-model']);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => new ChatCompletionsClient({ baseUrl: 'file:///etc/passwd' })).toThrow(TypeError);
  });
});
