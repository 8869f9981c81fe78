import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodexCredentials, saveCodexLogin } from '../src/model/codex/codexCredentials.js';
import { FileCredentialDocumentStore } from '../src/model/codex/credentialStore.js';
import { abortableSleep } from '../src/model/retry.js';
import { CodexResponsesClient } from '../src/model/codex/codexResponses.js';
import type { CodexAccess, CodexCredentialSource } from '../src/model/codex/credentials.js';
import { CODEX_ORIGINATOR } from '../src/model/codex/endpoints.js';
import {
  generate,
  type ModelItem,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '../src/model/port.js';
import {
  readResponsesFixture,
  startResponsesFixtureServer,
  type ResponsesFixtureServer,
} from './support/responsesFixtureServer.js';
import { rejectsWithModelError } from './support/modelErrors.js';

const RESPONSES = '/backend-api/codex/responses';
const MODELS = '/backend-api/codex/models';
const FIRST: CodexAccess = { accessToken: 'access-token-one', accountId: 'acct-fixture' };
const SECOND: CodexAccess = { accessToken: 'access-token-two', accountId: 'acct-fixture' };

/** The credential side as the transport sees it: fixed access, and a counted renewal after a 401. */
const testCredentials = () => {
  const rejected: CodexAccess[] = [];
  const source: CodexCredentialSource = {
    access: async () => FIRST,
    afterUnauthorized: async (refused) => {
      rejected.push(refused);
      return SECOND;
    },
  };
  return { source, rejected };
};

let server: ResponsesFixtureServer;
let credentials: ReturnType<typeof testCredentials>;
let waits: number[];
let client: CodexResponsesClient;

beforeEach(async () => {
  server = await startResponsesFixtureServer();
  credentials = testCredentials();
  waits = [];
  client = new CodexResponsesClient({
    credentials: credentials.source,
    endpoints: { issuer: server.origin, api: server.origin },
    version: '0.1.0',
    // Waits are recorded, not slept: time never passes in these tests.
    retry: { sleep: async (ms) => void waits.push(ms), random: () => 0 },
  });
});
afterEach(async () => server.close());

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'gpt-5.1-codex',
  instructions: 'You are Helix.',
  input: [{ type: 'message', role: 'user', text: 'How is the WAL checkpointed?' }],
  tools: [
    {
      name: 'search_library',
      description: 'Search',
      parameters: { type: 'object', properties: { query: { type: 'string' } } },
    },
  ],
  cacheKey: 'run_01J9FIXTURE',
  reasoningEffort: 'medium',
  signal: new AbortController().signal,
  ...overrides,
});

const textOf = (response: ModelResponse) =>
  response.output.map((item) => (item.type === 'message' ? item.text : '')).join('');

const bodyOf = (index: number) => server.requestsTo(RESPONSES)[index]?.body as Record<string, unknown>;

describe('Codex subscription Responses transport', () => {
  it('sends the pinned request invariants and identity headers, and reads the streamed message', async () => {
    server.script(RESPONSES, { sse: 'text.sse' }, { sse: 'text.sse' });
    const response = await generate(client, request());
    expect(textOf(response)).toBe('The WAL file is checkpointed.');
    expect(response.usage).toMatchObject({
      inputTokens: 1200,
      cachedInputTokens: 1024,
      outputTokens: 40,
      totalTokens: 1240,
    });
    await generate(client, request());

    const [first, second] = server.requestsTo(RESPONSES);
    expect(first?.method).toBe('POST');
    expect(first?.headers).toMatchObject({
      authorization: 'Bearer access-token-one',
      'chatgpt-account-id': 'acct-fixture',
      originator: CODEX_ORIGINATOR,
      accept: 'text/event-stream',
      'content-type': 'application/json',
      'session-id': 'run_01J9FIXTURE',
    });
    expect(first?.headers['user-agent']).toMatch(/^helix\/0\.1\.0 \(\S+ \S+; \S+\)$/);
    expect(first?.headers['x-client-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers['x-client-request-id']).not.toBe(first?.headers['x-client-request-id']);
    expect(second?.headers['session-id']).toBe(first?.headers['session-id']);

    const body = bodyOf(0);
    expect(body).toMatchObject({
      model: 'gpt-5.1-codex',
      instructions: 'You are Helix.',
      store: false,
      stream: true,
      include: ['reasoning.encrypted_content'],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      text: { verbosity: 'low' },
      reasoning: { effort: 'medium', summary: 'auto' },
      prompt_cache_key: 'run_01J9FIXTURE',
    });
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'search_library',
        description: 'Search',
        parameters: { type: 'object', properties: { query: { type: 'string' } } },
        strict: null,
      },
    ]);
    expect(body).not.toHaveProperty('max_output_tokens');
  });

  it('function call round trip: the next input echoes the call (call_id and item id) and its output', async () => {
    server.script(RESPONSES, { sse: 'function-call.sse' }, { sse: 'text.sse' });
    const first = await generate(client, request());
    const call = first.output[0];
    expect(call).toMatchObject({
      type: 'function_call',
      callId: 'call_fixture_01',
      itemId: 'fc_fixture_01',
      name: 'search_library',
    });
    const input: ModelItem[] = [
      ...request().input,
      ...first.output,
      { type: 'function_call_output', callId: 'call_fixture_01', output: '3 passages found' },
    ];
    await generate(client, request({ input }));
    expect(bodyOf(1).input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'How is the WAL checkpointed?' }] },
      {
        type: 'function_call',
        id: 'fc_fixture_01',
        call_id: 'call_fixture_01',
        name: 'search_library',
        arguments: '{"query":"sqlite wal checkpoint"}',
      },
      { type: 'function_call_output', call_id: 'call_fixture_01', output: '3 passages found' },
    ]);
  });

  it('replays the encrypted reasoning item verbatim in the next input', async () => {
    server.script(RESPONSES, { sse: 'reasoning.sse' }, { sse: 'text.sse' });
    const first = await generate(client, request());
    await generate(client, request({ input: [...request().input, ...first.output] }));
    const streamed = readResponsesFixture('reasoning.sse')
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; item?: { type: string } })
      .find((event) => event.type === 'response.output_item.done' && event.item?.type === 'reasoning')?.item;
    expect((bodyOf(1).input as unknown[])[1]).toEqual(streamed);
  });

  it.each(['done-terminal.sse', 'populated-output.sse'])('%s completes without double counting', async (sse) => {
    server.script(RESPONSES, { sse });
    const response = await generate(client, request());
    expect(response.output).toHaveLength(1);
  });

  it.each([
    ['failed-rate-limit.sse', 11_054],
    ['failed-server-overloaded.sse', 0],
    ['error-top-level.sse', 0],
    ['error-overload-first.sse', 0],
    ['no-terminal.sse', 0],
  ])('%s is retried, then succeeds without the failed attempt’s text', async (sse, statedWait) => {
    server.script(RESPONSES, { sse }, { sse: 'text.sse' });
    const events: ModelStreamEvent[] = [];
    for await (const event of client.stream(request())) events.push(event);
    expect(server.requestsTo(RESPONSES)).toHaveLength(2);
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(deltas.join('')).toBe('The WAL file is checkpointed.');
    expect(JSON.stringify(events)).not.toContain('PARTIAL-FROM-FAILED-ATTEMPT');
    expect(waits).toEqual([statedWait || 250]);
  });

  it('a 5xx status is retried', async () => {
    server.script(RESPONSES, { json: { error: { message: 'bad gateway' } }, status: 502 }, { sse: 'text.sse' });
    expect(textOf(await generate(client, request()))).toBe('The WAL file is checkpointed.');
    expect(server.requestsTo(RESPONSES)).toHaveLength(2);
  });

  it.each([
    ['failed-insufficient-quota.sse', 'quota'],
    ['failed-usage-not-included.sse', 'quota'],
    ['failed-context-length.sse', 'context_length'],
    ['incomplete-max-output-tokens.sse', 'incomplete'],
    ['incomplete-content-filter.sse', 'incomplete'],
  ])('%s fails as %s after one request', async (sse, kind) => {
    server.script(RESPONSES, { sse }, { sse: 'text.sse' });
    const error = await rejectsWithModelError(generate(client, request()));
    expect(error.kind).toBe(kind);
    expect(error.details.attempts).toBe(1);
    expect(server.requestsTo(RESPONSES)).toHaveLength(1);
  });

  it('gives up after the bounded attempts and carries the provider’s code', async () => {
    server.script(RESPONSES, ...Array.from({ length: 5 }, () => ({ sse: 'failed-server-overloaded.sse' })));
    const error = await rejectsWithModelError(generate(client, request()));
    expect(error.details).toMatchObject({ attempts: 4, providerCode: 'server_is_overloaded' });
    expect(server.requestsTo(RESPONSES)).toHaveLength(4);
  });

  it('a 429 usage_limit_reached is not retried and says when the limit resets', async () => {
    const body: unknown = JSON.parse(readResponsesFixture('usage-limit-reached.429.json'));
    server.script(RESPONSES, { json: body, status: 429, headers: { 'retry-after': '3600' } }, { sse: 'text.sse' });
    const error = await rejectsWithModelError(generate(client, request()));
    expect(error.kind).toBe('quota');
    expect(error.details).toMatchObject({ retryable: false, resetsAt: 1767229200_000, httpStatus: 429 });
    expect(error.message).toContain(new Date(1767229200_000).toISOString());
    expect(server.requestsTo(RESPONSES)).toHaveLength(1);
  });

  it('unsupported_parameter is typed with the parameter and not looped', async () => {
    server.script(RESPONSES, { sse: 'error-unsupported-parameter.sse' }, { sse: 'text.sse' });
    const error = await rejectsWithModelError(generate(client, request()));
    expect(error).toMatchObject({
      kind: 'unsupported_parameter',
      details: { param: 'reasoning.summary', retryable: false },
    });
    expect(error.message).toContain('reasoning.summary');
    expect(server.requestsTo(RESPONSES)).toHaveLength(1);
  });

  it('a 401 lets the credential side renew once, then the request succeeds with the new token', async () => {
    server.script(RESPONSES, { json: { detail: 'Unauthorized' }, status: 401 }, { sse: 'text.sse' });
    expect(textOf(await generate(client, request()))).toBe('The WAL file is checkpointed.');
    expect(credentials.rejected).toEqual([FIRST]);
    expect(server.requestsTo(RESPONSES).map((r) => r.headers.authorization)).toEqual([
      'Bearer access-token-one',
      'Bearer access-token-two',
    ]);
  });

  it('a second 401 is an auth failure, without echoing the token', async () => {
    server.script(RESPONSES, { json: {}, status: 401 }, { json: {}, status: 401 }, { sse: 'text.sse' });
    const error = await rejectsWithModelError(generate(client, request()));
    expect(error.kind).toBe('auth');
    expect(credentials.rejected).toHaveLength(1);
    expect(server.requestsTo(RESPONSES)).toHaveLength(2);
    expect(error.message).not.toContain('access-token');
  });

  it('masks the account id and token when the backend quotes them back', async () => {
    const quoted = `account ${FIRST.accountId} with token ${FIRST.accessToken} is not allowed`;
    server.script(
      RESPONSES,
      { json: { error: { message: quoted, type: 'invalid_request_error' } }, status: 400 },
      {
        sseText: `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'invalid_prompt', message: quoted })}\n\n`,
      },
    );
    for (let i = 0; i < 2; i += 1) {
      const error = await rejectsWithModelError(generate(client, request()));
      const shown = `${error.message} ${error.stack ?? ''} ${JSON.stringify(error.details)}`;
      expect(shown).not.toContain(FIRST.accountId);
      expect(shown).not.toContain(FIRST.accessToken);
    }
  });

  it('refuses a redirect: protocol error, and the target is never contacted', async () => {
    server.script(RESPONSES, { redirectTo: `${server.origin}/elsewhere`, status: 307 });
    server.script('/elsewhere', { sse: 'text.sse' });
    const error = await rejectsWithModelError(generate(client, request()));
    expect(error.kind).toBe('protocol');
    expect(server.requestsTo('/elsewhere')).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it('an abort mid-stream ends the generation promptly as aborted', async () => {
    server.script(RESPONSES, { sse: 'no-terminal.sse', holdOpen: true });
    const controller = new AbortController();
    const pending = rejectsWithModelError(generate(client, request({ signal: controller.signal })));
    await server.waitForRequests(1);
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe('aborted');
    expect(server.requestsTo(RESPONSES)).toHaveLength(1);
  });
});

describe('Codex transport: a cancel stops everything', () => {
  it('an abort during the backoff wait ends as aborted at once, and no further request goes out', async () => {
    server.script(RESPONSES, { sse: 'failed-server-overloaded.sse' }, { sse: 'text.sse' });
    let entered!: () => void;
    const waiting = new Promise<void>((resolve) => (entered = resolve));
    const patient = new CodexResponsesClient({
      credentials: credentials.source,
      endpoints: { issuer: server.origin, api: server.origin },
      version: '0.1.0',
      // A real abortable wait, far longer than the test: only the abort can end it.
      retry: {
        sleep: (_ms, signal) => {
          entered();
          return abortableSleep(3_600_000, signal);
        },
      },
    });
    const controller = new AbortController();
    const pending = rejectsWithModelError(generate(patient, request({ signal: controller.signal })));
    await waiting;
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ kind: 'aborted', details: { attempts: 1 } });
    expect(server.requestsTo(RESPONSES)).toHaveLength(1);
  });

  it('an abort while the credential refresh hangs ends as aborted, and no Responses request goes out', async () => {
    const refreshes: string[] = [];
    // A token endpoint that takes the refresh and never answers.
    const issuer = createServer((incoming) => {
      refreshes.push(incoming.url ?? '');
      incoming.resume();
    });
    await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
    const issuerOrigin = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
    const home = await mkdtemp(join(tmpdir(), 'helix-codex-abort-'));
    try {
      const store = new FileCredentialDocumentStore({ home });
      // Opaque (non-JWT) tokens, so the stored expiry decides: it has passed, so access() must refresh.
      await saveCodexLogin(store, 'local', {
        idToken: 'id-old',
        accessToken: 'access-old',
        refreshToken: 'rt-old',
        expiresAt: Date.now() - 60_000,
        accountId: 'acct-fixture',
      });
      const real = new CodexResponsesClient({
        credentials: new CodexCredentials({
          store,
          ownerKey: 'local',
          endpoints: { issuer: issuerOrigin, api: server.origin },
        }),
        endpoints: { issuer: issuerOrigin, api: server.origin },
        version: '0.1.0',
        retry: { sleep: async () => undefined },
      });
      server.script(RESPONSES, { sse: 'text.sse' });
      const controller = new AbortController();
      const pending = rejectsWithModelError(generate(real, request({ signal: controller.signal })));
      await expect.poll(() => refreshes.length).toBe(1);
      controller.abort();
      const error = await pending;
      expect(error.kind).toBe('aborted');
      expect(server.requestsTo(RESPONSES)).toHaveLength(0);
      expect(refreshes).toEqual(['/oauth/token']);
    } finally {
      issuer.closeAllConnections();
      await new Promise<void>((resolve) => issuer.close(() => resolve()));
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('Codex model discovery', () => {
  const entry = (slug: string, extra: Record<string, unknown> = {}) => ({
    slug,
    display_name: slug.toUpperCase(),
    supported_reasoning_levels: [
      { effort: 'low', description: 'fast' },
      { effort: 'high', description: 'deep' },
    ],
    default_reasoning_level: 'low',
    supports_reasoning_summaries: true,
    support_verbosity: true,
    default_verbosity: 'low',
    supports_parallel_tool_calls: true,
    context_window: 272000,
    input_modalities: ['text', 'image'],
    visibility: 'list',
    priority: 1,
    some_future_field: { nested: true },
    ...extra,
  });

  it('keeps provider order, maps capabilities, and sends the same identity', async () => {
    server.script(MODELS, {
      json: {
        models: [
          entry('gpt-5.1-codex'),
          entry('gpt-5.1-codex-mini', { supports_parallel_tool_calls: false }),
          entry('internal-probe', { visibility: 'hide' }),
        ],
      },
    });
    const models = await client.listModels(new AbortController().signal);
    expect(models.map((m) => m.id)).toEqual(['gpt-5.1-codex', 'gpt-5.1-codex-mini']);
    expect(models[0]).toEqual({
      id: 'gpt-5.1-codex',
      displayName: 'GPT-5.1-CODEX',
      reasoningLevels: ['low', 'high'],
      defaultReasoningLevel: 'low',
      supportsParallelToolCalls: true,
      contextWindow: 272000,
      inputModalities: ['text', 'image'],
    });
    expect(models[1]?.supportsParallelToolCalls).toBe(false);
    const [recorded] = server.requestsTo(MODELS);
    expect(recorded?.method).toBe('GET');
    expect(recorded?.query.get('client_version')).toBe('0.0.0');
    expect(recorded?.headers).toMatchObject({
      authorization: 'Bearer access-token-one',
      'chatgpt-account-id': 'acct-fixture',
      originator: CODEX_ORIGINATOR,
    });
  });

  it('a body without the top-level models array is an error', async () => {
    server.script(MODELS, { json: { data: [{ id: 'gpt-5.1-codex' }] } });
    expect((await rejectsWithModelError(client.listModels(new AbortController().signal))).kind).toBe('protocol');
  });

  it('an error status is classified', async () => {
    server.script(MODELS, { json: { error: { code: 'server_error', message: 'x' } }, status: 500 });
    expect((await rejectsWithModelError(client.listModels(new AbortController().signal))).kind).toBe('server');
  });
});
