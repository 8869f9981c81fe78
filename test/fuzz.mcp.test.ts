import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsCredential, isCredentialShaped } from '../src/domain/credentialShape.js';
import { api, idemKey, startTestHelix, type ApiResponse, type TestHelix } from './support/harness.js';
import {
  credentialEchoes,
  credentialShaped,
  embeddedCredential,
  hlxKey,
  PROTOTYPE_KEYS,
  routableRunIdSegment,
  unknownKey,
  validStartRequest,
  withKey,
  type Json,
  type JsonObject,
} from './support/arbitraries.js';
import { storeFlavours } from './support/stores.js';

/**
 * Property-based fuzzing of the stateless MCP endpoint (POST /mcp) over real HTTP: any envelope
 * gets valid JSON and never a 500; a refused envelope gets the one static answer; a tools/call
 * that reaches a tool answers a result or a structured `helix.agent_api.error.v1`; unknown
 * arguments are refused; nothing credential-shaped comes back.
 */

const ERROR_SCHEMA = 'helix.agent_api.error.v1';

/**
 * The keys that reach an object's prototype (`__proto__`, `constructor`, `prototype`): the envelope
 * preflight refuses them at any depth before any tool runs. Other Object.prototype member names
 * (`toString`, …) are ordinary unknown keys, refused by the tool's own schema.
 */
const PROTOTYPE_REACHING_KEYS = ['__proto__', 'constructor', 'prototype'];
const reachesPrototype = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).some(
    (k) => PROTOTYPE_REACHING_KEYS.includes(k) || reachesPrototype((value as Record<string, unknown>)[k]),
  );
const INVALID_ENVELOPE_TEXT = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}';
const ENVELOPE_KEYS = ['jsonrpc', 'id', 'method', 'params'];
const SUCCESS_SCHEMAS = ['helix.agent_run.v1', 'helix.agent_run.evidence_bundle.v1', 'helix.agent_run.event.v1.page'];
const NO_RATE_LIMITS = {
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_MCP_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_MCP_PRINCIPAL_RATE_LIMIT: '0',
};
/** Stands for the id of a run that exists; replaced when the request is serialized. */
const REAL_RUN = '__fuzz_real_run_id__';
/** Stands for a fresh Idempotency-Key; replaced when the request is serialized. */
const FRESH_KEY = '__fuzz_fresh_key__';
const FIXED_KEY = `hlx_${'A'.repeat(43)}`;

const TOOL_ARGUMENTS = {
  helix_run_start: ['idempotency_key', 'request'],
  helix_run_continue: ['run_id', 'idempotency_key', 'request'],
  helix_run_cancel: ['run_id', 'idempotency_key', 'request'],
  helix_run_inspect: ['run_id'],
  helix_run_fetch_evidence: ['run_id'],
  helix_run_list_events: ['run_id', 'after_seq', 'limit'],
} as const;
type ToolName = keyof typeof TOOL_ARGUMENTS;
const TOOLS = Object.keys(TOOL_ARGUMENTS) as ToolName[];

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every string in a JSON value (keys included) that is credential-shaped: what must not come back. */
const credentialsIn = (value: unknown): string[] => {
  if (typeof value === 'string') return isCredentialShaped(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(credentialsIn);
  if (isPlainObject(value))
    return Object.entries(value).flatMap(([k, v]) => [...(isCredentialShaped(k) ? [k] : []), ...credentialsIn(v)]);
  return [];
};

/** Arguments that are valid for each tool (the run exists; versions are deliberately stale). */
const validArguments = (tool: ToolName): JsonObject => {
  switch (tool) {
    case 'helix_run_start':
      return { idempotency_key: idemKey('mcp-fuzz'), request: { objective: 'fuzzed start' } };
    case 'helix_run_continue':
      return {
        run_id: REAL_RUN,
        idempotency_key: idemKey('mcp-fuzz'),
        request: { expected_version: 999, instruction: 'look' },
      };
    case 'helix_run_cancel':
      return { run_id: REAL_RUN, idempotency_key: idemKey('mcp-fuzz'), request: { expected_version: 999 } };
    case 'helix_run_list_events':
      return { run_id: REAL_RUN, after_seq: 0, limit: 10 };
    case 'helix_run_inspect':
    case 'helix_run_fetch_evidence':
      return { run_id: REAL_RUN };
  }
};

const toolCall = (id: Json, name: string, args: Json | undefined): JsonObject => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: args === undefined ? { name } : { name, arguments: args },
});

describe('MCP fuzz: POST /mcp over real HTTP', () => {
  let h: TestHelix;
  let token: string;
  let realRunId: string;

  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, { env: NO_RATE_LIMITS });
    token = await h.key();
    const started = await api(h.url, 'POST', '/api/v1/agent-runs', {
      token,
      idempotencyKey: idemKey('mcp-fuzz'),
      body: { objective: 'A run the MCP fuzzer reads and changes' },
    });
    expect(started.status).toBe(201);
    realRunId = started.body.run_id;
  });
  afterAll(async () => {
    await h?.close();
  });

  const postRaw = (text: string, headers: Record<string, string> = {}): Promise<ApiResponse> =>
    api(h.url, 'POST', '/mcp', {
      token,
      rawBody: text,
      headers: { accept: 'application/json, text/event-stream', ...headers },
    });
  const postMcp = (body: Json, headers: Record<string, string> = {}): Promise<ApiResponse> =>
    postRaw(JSON.stringify(body).replaceAll(REAL_RUN, realRunId).replaceAll(FRESH_KEY, idemKey('mcp-fuzz')), headers);

  /** What holds for every answer: no 5xx, JSON unless it is a 202 for a notification, nothing echoed. */
  const expectWellFormed = (response: ApiResponse, planted: readonly string[]) => {
    expect(response.status, response.text).toBeLessThan(500);
    if (response.text === '') expect(response.status).toBe(202);
    else expect(() => JSON.parse(response.text), response.text).not.toThrow();
    expect(credentialEchoes(response, [...planted, token]), `${response.status} ${response.text}`).toEqual([]);
  };

  const expectInvalidEnvelope = (response: ApiResponse) => {
    expect(response.status, response.text).toBe(400);
    expect(response.text).toBe(INVALID_ENVELOPE_TEXT);
  };

  /** A tools/call that reached a tool: a result, and on failure the structured error body. */
  const expectToolResult = (response: ApiResponse) => {
    expect(response.status, response.text).toBe(200);
    const result = response.body.result;
    expect(result, response.text).toBeDefined();
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    if (result.isError === true) {
      expect(result.structuredContent).toMatchObject({
        schema: ERROR_SCHEMA,
        code: expect.any(String),
        status: expect.any(Number),
      });
    } else {
      expect(SUCCESS_SCHEMAS).toContain(result.structuredContent.schema);
    }
    return result as { isError?: boolean; structuredContent: Record<string, unknown> };
  };

  const idValue: fc.Arbitrary<Json> = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
    fc.constantFrom(2 ** 60, -(2 ** 60), 'x'.repeat(201)),
    credentialShaped,
  );
  const methodValue: fc.Arbitrary<Json> = fc.oneof(
    fc.constantFrom(
      'tools/list',
      'tools/call',
      'initialize',
      'ping',
      'notifications/initialized',
      'notifications/cancelled',
      'resources/list',
      'prompts/list',
      'logging/setLevel',
      'completion/complete',
      '',
      'm'.repeat(101),
    ),
    fc.string({ maxLength: 30 }),
    credentialShaped,
    fc.jsonValue({ maxDepth: 1 }),
  );
  const paramsValue: fc.Arbitrary<Json> = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    fc.record(
      {
        name: fc.oneof(fc.constantFrom(...TOOLS), fc.string({ maxLength: 20 })),
        arguments: fc.jsonValue({ maxDepth: 3 }),
      },
      { requiredKeys: [] },
    ),
    embeddedCredential.map(({ value }) => ({ name: 'helix_run_inspect', arguments: { run_id: value } })),
  );

  /** An envelope with any subset of the known keys, maybe strangers, or not an object at all. */
  const envelope: fc.Arbitrary<Json> = fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          fc.record(
            {
              jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), fc.jsonValue({ maxDepth: 1 })),
              id: idValue,
              method: methodValue,
              params: paramsValue,
            },
            { requiredKeys: [] },
          ),
          fc.array(fc.tuple(unknownKey(ENVELOPE_KEYS), fc.jsonValue({ maxDepth: 1 })), { maxLength: 2 }),
        )
        .map(([known, extra]) => extra.reduce<JsonObject>((acc, [k, v]) => withKey(acc, k, v), known as JsonObject)),
    },
    // Well-formed enough to reach the SDK: the known keys only, a safe id, a real method.
    {
      weight: 4,
      arbitrary: fc
        .record({
          jsonrpc: fc.constant('2.0'),
          id: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.string({ maxLength: 20 })),
          method: fc.constantFrom(
            'tools/list',
            'tools/call',
            'initialize',
            'ping',
            'notifications/initialized',
            'resources/list',
            'completion/complete',
          ),
          params: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        })
        .map((r) => r as Json),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
        fc.string(),
        fc.integer(),
        fc.constant(null),
      ),
    },
  );

  it('any JSON-RPC envelope: never a 5xx, always JSON, nothing credential-shaped echoed; an unknown key, a credential anywhere or a non-object gets the one static refusal', async () => {
    await fc.assert(
      fc.asyncProperty(envelope, async (body) => {
        const response = await postMcp(body);
        expectWellFormed(response, credentialsIn(body));
        const refused =
          !isPlainObject(body) ||
          Object.keys(body).some((k) => !ENVELOPE_KEYS.includes(k)) ||
          (typeof body.id === 'string' && isCredentialShaped(body.id)) ||
          containsCredential(body);
        if (refused) expectInvalidEnvelope(response);
      }),
      {
        numRuns: 200,
        examples: [
          [{ jsonrpc: '2.0', id: 1, method: 'tools/list', extra: true }],
          [{ jsonrpc: '2.0', id: FIXED_KEY, method: 'tools/list' }],
          [{ jsonrpc: '2.0', id: `Bearer ${FIXED_KEY}`, method: 'ping' }],
          [[{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
        ],
      },
    );
  });

  it('a body that is not JSON, or nested past the depth limit, is a 400 in JSON that echoes nothing', async () => {
    const raw = fc.oneof(
      fc.string({ maxLength: 40 }).filter((s) => {
        try {
          JSON.parse(s);
          return false;
        } catch {
          return s.trim() !== '';
        }
      }),
      fc
        .integer({ min: 65, max: 3000 })
        .map(
          (depth) => `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
        ),
      credentialShaped.map((credential) => `{"jsonrpc":"2.0","id":"${credential}",`),
    );
    await fc.assert(
      fc.asyncProperty(raw, async (text) => {
        const response = await postRaw(text);
        expectWellFormed(response, credentialsIn(text.match(/"([^"]*)"/g)?.map((q) => q.slice(1, -1)) ?? []));
        expect(response.status, response.text).toBe(400);
      }),
      { numRuns: 100 },
    );
  });

  /** Arguments for a tool: plausible ones (each argument valid, invalid or absent) or anything at all. */
  const toolArguments: fc.Arbitrary<Json | undefined> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record(
          {
            run_id: fc.oneof(
              fc.constant(REAL_RUN),
              routableRunIdSegment.map(decodeURIComponent),
              fc.jsonValue({ maxDepth: 1 }),
            ),
            idempotency_key: fc.oneof(
              fc.constant(FRESH_KEY),
              fc.constantFrom('fuzz-mcp-shared-0001', 'short', 'has space'),
              fc.jsonValue({ maxDepth: 1 }),
            ),
            request: fc.oneof(
              validStartRequest,
              fc
                .record(
                  {
                    expected_version: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.jsonValue({ maxDepth: 1 })),
                    instruction: fc.string({ maxLength: 20 }),
                    reason: fc.string({ maxLength: 20 }),
                  },
                  { requiredKeys: [] },
                )
                .map((r) => r as Json),
              fc.jsonValue({ maxDepth: 2 }),
            ),
            after_seq: fc.oneof(
              fc.integer({ min: -2, max: 20 }),
              fc.constantFrom('1', '1e9', '0x10', '-1', '١٢', '9'.repeat(20)),
              fc.jsonValue({ maxDepth: 1 }),
            ),
            limit: fc.oneof(
              fc.integer({ min: -2, max: 300 }),
              fc.constantFrom('10', '1e9', '0x10', ''),
              fc.jsonValue({ maxDepth: 1 }),
            ),
          },
          { requiredKeys: [] },
        )
        .map((r) => r as Json),
    },
    {
      weight: 2,
      arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    },
    { weight: 1, arbitrary: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)) },
    {
      weight: 1,
      arbitrary: embeddedCredential.map(
        ({ value }): Json => ({ run_id: REAL_RUN, [value.slice(0, 60)]: 1, note: value }),
      ),
    },
  );

  it('tools/call with arbitrary arguments to each of the six tools: a result or an isError helix.agent_api.error.v1, never a 5xx or an echo', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TOOLS),
        toolArguments,
        fc.integer({ min: 1, max: 1_000_000 }),
        async (tool, args, id) => {
          const response = await postMcp(toolCall(id, tool, args));
          expectWellFormed(response, credentialsIn(args));
          if (args !== undefined && (!isPlainObject(args) || containsCredential(args) || reachesPrototype(args)))
            return expectInvalidEnvelope(response);
          expectToolResult(response);
          expect(response.body.id).toBe(id);
        },
      ),
      { numRuns: 200 },
    );
  });

  const unknownArgument = (tool: ToolName, keys: fc.Arbitrary<string>) =>
    fc.record({
      tool: fc.constant(tool),
      key: keys.filter((k) => !(TOOL_ARGUMENTS[tool] as readonly string[]).includes(k)),
      value: fc.jsonValue({ maxDepth: 2 }).filter((v) => !containsCredential(v)),
    });

  /** Refused either by the envelope preflight (static 400, `id: null`) or by the tool (isError invalid_request). */
  const expectUnknownArgumentRefused = async ({ tool, key, value }: { tool: ToolName; key: string; value: Json }) => {
    const response = await postMcp(toolCall(7, tool, withKey(validArguments(tool), key, value)));
    expectWellFormed(response, []);
    if (response.status === 400) {
      expect(response.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
      return;
    }
    const result = expectToolResult(response);
    expect(result.isError, `${tool} admitted the unknown argument ${JSON.stringify(key)}: ${response.text}`).toBe(true);
    expect(result.structuredContent.code).toBe('invalid_request');
  };

  it('an unknown argument to any tool is refused with isError invalid_request', async () => {
    const ordinaryKeys = unknownKey([]).filter((k) => !(PROTOTYPE_KEYS as readonly string[]).includes(k));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TOOLS).chain((tool) => unknownArgument(tool, ordinaryKeys)),
        expectUnknownArgumentRefused,
      ),
      { numRuns: 150 },
    );
  });

  /**
   * Regression: ToolCatalog.call tests argument names with `k in tool.input.shape`,
   * and a zod shape is a plain object, so every Object.prototype member name (`toString`,
   * `constructor`, `__proto__`, `hasOwnProperty`, …) passes as a known argument and is silently
   * ignored: helix_run_start with `{"toString":1}` next to valid arguments creates a run.
   */
  it('an unknown argument named like an Object.prototype member is refused too', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TOOLS).chain((tool) => unknownArgument(tool, fc.constantFrom(...PROTOTYPE_KEYS))),
        expectUnknownArgumentRefused,
      ),
      { numRuns: 60, examples: [[{ tool: 'helix_run_start', key: 'toString', value: 1 }]] },
    );
  });

  it('an unknown field inside a tool request is refused with isError invalid_request', async () => {
    const tools = ['helix_run_start', 'helix_run_continue', 'helix_run_cancel'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...tools),
        unknownKey([
          'objective',
          'constraints',
          'database_scope',
          'completion_contract',
          'budget',
          'expected_version',
          'instruction',
          'answers',
          'reason',
        ]),
        async (tool, key) => {
          const args = validArguments(tool);
          const response = await postMcp(
            toolCall(1, tool, { ...args, request: withKey(args.request as JsonObject, key, 1) }),
          );
          expectWellFormed(response, []);
          if (response.status === 400) {
            // A prototype-reaching key is refused by the envelope preflight, before any tool runs.
            expect(response.body).toEqual({
              jsonrpc: '2.0',
              id: null,
              error: { code: -32600, message: 'Invalid Request' },
            });
            return;
          }
          const result = expectToolResult(response);
          expect(result.isError).toBe(true);
          expect(result.structuredContent.code).toBe('invalid_request');
        },
      ),
      { numRuns: 100 },
    );
  });

  /** Where a credential-shaped value is planted in one MCP request. */
  type Placement = {
    readonly where:
      | 'id'
      | 'method'
      | 'tool-name'
      | 'argument-key'
      | 'argument-value'
      | 'x-request-id'
      | 'mcp-session-id';
    readonly credential: string;
  };
  const placement: fc.Arbitrary<Placement> = fc.record({
    where: fc.constantFrom(
      'id' as const,
      'method' as const,
      'tool-name' as const,
      'argument-key' as const,
      'argument-value' as const,
      'x-request-id' as const,
      'mcp-session-id' as const,
    ),
    credential: credentialShaped,
  });

  const sendWithPlacement = (p: Placement): Promise<ApiResponse> => {
    const inspect = toolCall(1, 'helix_run_inspect', { run_id: REAL_RUN });
    switch (p.where) {
      case 'id':
        return postMcp({ ...inspect, id: p.credential });
      case 'method':
        return postMcp({ ...inspect, method: p.credential });
      case 'tool-name':
        return postMcp(toolCall(1, p.credential, { run_id: REAL_RUN }));
      case 'argument-key':
        return postMcp(toolCall(1, 'helix_run_inspect', withKey({ run_id: REAL_RUN }, p.credential, 1)));
      case 'argument-value':
        return postMcp(
          toolCall(1, 'helix_run_start', { idempotency_key: idemKey(), request: { objective: p.credential } }),
        );
      case 'x-request-id':
        return postMcp(inspect, { 'x-request-id': p.credential });
      case 'mcp-session-id':
        return postMcp(inspect, { 'mcp-session-id': p.credential });
    }
  };

  it('never echoes a credential-shaped id, method, tool name, argument or header', async () => {
    await fc.assert(
      fc.asyncProperty(placement, async (p) => {
        const response = await sendWithPlacement(p);
        expectWellFormed(response, [p.credential]);
        expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
        if (['id', 'method', 'tool-name', 'argument-key', 'argument-value'].includes(p.where))
          expectInvalidEnvelope(response);
      }),
      { numRuns: 150 },
    );
  });

  /**
   * Regression: mcpRoute forwards MCP-Protocol-Version to the SDK transport, whose 400
   * for an unsupported version quotes the header verbatim ("Unsupported protocol version: <value>").
   */
  it('never echoes a credential-shaped MCP-Protocol-Version header', async () => {
    await fc.assert(
      fc.asyncProperty(credentialShaped, async (credential) => {
        const response = await postMcp(
          { jsonrpc: '2.0', id: 1, method: 'tools/list' },
          { 'mcp-protocol-version': credential },
        );
        expectWellFormed(response, [credential]);
      }),
      { numRuns: 30, examples: [[FIXED_KEY]] },
    );
  });

  it('a credential-shaped key of the right shape is refused wherever it appears in tools/call arguments', async () => {
    await fc.assert(
      fc.asyncProperty(hlxKey, fc.constantFrom(...TOOLS), async (credential, tool) => {
        const args = { ...validArguments(tool), [TOOL_ARGUMENTS[tool][0]]: credential };
        const response = await postMcp(toolCall(1, tool, args));
        expectWellFormed(response, [credential]);
        expectInvalidEnvelope(response);
      }),
      { numRuns: 30 },
    );
  });
});
