import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResponsesGatewayClient } from '../src/model/gateway/responsesGateway.js';
import { generate, type ModelItem, type ModelRequest, type ModelStreamEvent } from '../src/model/port.js';
import { startResponsesFixtureServer, type ResponsesFixtureServer } from './support/responsesFixtureServer.js';
import { rejectsWithModelError } from './support/modelErrors.js';

const API_KEY = 'sk-fixture-gateway-key-0123456789';

let server: ResponsesFixtureServer;
let client: ResponsesGatewayClient;
let waits: number[];

beforeEach(async () => {
  server = await startResponsesFixtureServer();
  waits = [];
  client = new ResponsesGatewayClient({
    baseUrl: `${server.origin}/v1/`,
    apiKey: API_KEY,
    retry: { sleep: async (ms) => void waits.push(ms), random: () => 0 },
  });
});
afterEach(async () => server.close());

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'gpt-4.1',
  instructions: 'You are Helix.',
  input: [{ type: 'message', role: 'user', text: 'hello' }],
  tools: [],
  cacheKey: 'run_gateway',
  signal: new AbortController().signal,
  ...overrides,
});

describe('OpenAI-compatible Responses gateway', () => {
  it('posts the gateway profile to {baseUrl}/responses with the bearer key and reads the stream', async () => {
    server.script('/v1/responses', { sse: 'text.sse' });
    const response = await generate(client, request());
    expect(client.provider).toBe('openai-responses');
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'The WAL file is checkpointed.' }]);
    const [recorded] = server.requestsTo('/v1/responses');
    expect(recorded?.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      accept: 'text/event-stream',
      'content-type': 'application/json',
    });
    expect(recorded?.body).toEqual({
      model: 'gpt-4.1',
      instructions: 'You are Helix.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] }],
      tools: [],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      store: false,
      stream: true,
    });
  });

  it('asks for reasoning only when an effort is named, and replays its own reasoning but not another provider’s', async () => {
    server.script('/v1/responses', { sse: 'reasoning.sse' }, { sse: 'text.sse' });
    const first = await generate(client, request({ reasoningEffort: 'high' }));
    const foreign: ModelItem = {
      type: 'reasoning',
      provider: 'codex-subscription',
      opaque: { type: 'reasoning', id: 'rs_x', encrypted_content: 'other' },
    };
    await generate(client, request({ reasoningEffort: 'high', input: [...request().input, foreign, ...first.output] }));
    const [one, two] = server.requestsTo('/v1/responses').map((r) => r.body as Record<string, unknown>);
    expect(one).toMatchObject({ reasoning: { effort: 'high' }, include: ['reasoning.encrypted_content'] });
    const input = two?.input as Array<Record<string, unknown>>;
    expect(input.filter((item) => item.type === 'reasoning').map((item) => item.id)).toEqual(['rs_fixture_01']);
  });

  it('retries a transient failure and yields only the attempt that completed', async () => {
    server.script('/v1/responses', { sse: 'failed-server-overloaded.sse' }, { sse: 'text.sse' });
    const events: ModelStreamEvent[] = [];
    for await (const event of client.stream(request())) events.push(event);
    expect(JSON.stringify(events)).not.toContain('PARTIAL-FROM-FAILED-ATTEMPT');
    expect(server.requestsTo('/v1/responses')).toHaveLength(2);
    expect(waits).toEqual([250]);
  });

  it('honours retry-after-ms on a 429 rate limit', async () => {
    server.script(
      '/v1/responses',
      {
        json: { error: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached' } },
        status: 429,
        headers: { 'retry-after-ms': '1200' },
      },
      { sse: 'text.sse' },
    );
    await generate(client, request());
    expect(waits).toEqual([1200]);
  });

  it('a 401 is an auth failure, not retried, and the key is not in the message', async () => {
    server.script('/v1/responses', {
      json: { error: { message: `Incorrect API key provided: ${API_KEY}`, code: 'invalid_api_key' } },
      status: 401,
    });
    const error = await rejectsWithModelError(generate(client, request()));
    expect(error.kind).toBe('auth');
    expect(error.message).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('a 400 unsupported_parameter is typed and not retried', async () => {
    server.script('/v1/responses', {
      json: {
        error: {
          type: 'invalid_request_error',
          code: 'unsupported_parameter',
          param: 'reasoning.effort',
          message: "Unsupported parameter: 'reasoning.effort'",
        },
      },
      status: 400,
    });
    const error = await rejectsWithModelError(generate(client, request({ reasoningEffort: 'low' })));
    expect(error).toMatchObject({ kind: 'unsupported_parameter', details: { param: 'reasoning.effort', attempts: 1 } });
  });

  it('refuses a redirect and never contacts its target', async () => {
    server.script('/v1/responses', { redirectTo: `${server.origin}/other/responses`, status: 307 });
    server.script('/other/responses', { sse: 'text.sse' });
    expect((await rejectsWithModelError(generate(client, request()))).kind).toBe('protocol');
    expect(server.requestsTo('/other/responses')).toHaveLength(0);
  });

  it('lists models from {baseUrl}/models in the order given', async () => {
    server.script('/v1/models', {
      json: {
        object: 'list',
        data: [{ id: 'gpt-4.1', object: 'model' }, { id: 'o4-mini', object: 'model' }, { object: 'model' }],
      },
    });
    const models = await client.listModels(new AbortController().signal);
    expect(models.map((m) => m.id)).toEqual(['gpt-4.1', 'o4-mini']);
    expect(server.requestsTo('/v1/models')[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('a model list without data, or that is not JSON, is a protocol error', async () => {
    server.script('/v1/models', { json: { models: [] } }, { sse: 'text.sse' });
    expect((await rejectsWithModelError(client.listModels(new AbortController().signal))).kind).toBe('protocol');
    expect((await rejectsWithModelError(client.listModels(new AbortController().signal))).kind).toBe('protocol');
  });

  it('masks the key of any shape when the gateway quotes it back, in an error body or in the stream', async () => {
    const key = 'gw0123456789abcdefDEADBEEF';
    const plain = new ResponsesGatewayClient({
      baseUrl: `${server.origin}/v1`,
      apiKey: key,
      retry: { maxAttempts: 1 },
    });
    server.script(
      '/v1/responses',
      {
        json: { error: { message: `The key ${key} has no access to gpt-4.1`, type: 'invalid_request_error' } },
        status: 403,
      },
      {
        sseText: `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'server_error', message: `key ${key} overloaded` })}\n\n`,
      },
    );
    server.script('/v1/models', { json: { error: { message: `unknown key ${key}` } }, status: 400 });
    // Each call starts only when awaited: a rejection nobody is waiting for yet would be unhandled.
    for (const call of [
      () => generate(plain, request()),
      () => generate(plain, request()),
      () => plain.listModels(new AbortController().signal),
    ]) {
      const error = await rejectsWithModelError(call());
      expect(`${error.message} ${error.stack ?? ''} ${JSON.stringify(error.details)}`).not.toContain(key);
    }
  });
});
