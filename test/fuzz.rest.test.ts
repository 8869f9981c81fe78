import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET_BOUNDS, BUDGET_DEFAULTS, CONTRACT_BOUNDS, CONTRACT_DEFAULTS } from '../src/domain/contract.js';
import { RUN_ID_PATTERN } from '../src/domain/run.js';
import { api, idemKey, startTestHelix, type ApiResponse, type TestHelix } from './support/harness.js';
import {
  BUDGET_KEYS,
  CONTRACT_KEYS,
  credentialEchoes,
  credentialShaped,
  embeddedCredential,
  encodeQuery,
  eventsQueryIsValid,
  hlxKey,
  INFINITY_MARKER,
  jsonOfOtherType,
  type Json,
  type JsonObject,
  jwtLike,
  malformedEscapeSegment,
  nestedJsonText,
  outOfRangeNumber,
  overLongRunIdSegment,
  queryPairs,
  routableRunIdSegment,
  ROUTER_MAX_PARAM_LENGTH,
  serialize,
  START_KEYS,
  unknownKey,
  validStartRequest,
  withKey,
} from './support/arbitraries.js';
import { storeFlavours } from './support/stores.js';

/**
 * Property-based fuzzing of the REST run endpoints over real HTTP (docs/spec/security-test-matrix.md rows
 * 19-23): the contract's bounds decide acceptance, every refusal is a 400 `invalid_request` in the
 * error vocabulary, and nothing credential-shaped a caller sends comes back.
 */

const RUNS = '/api/v1/agent-runs';
const ERROR_SCHEMA = 'helix.agent_api.error.v1';
const NO_RATE_LIMITS = {
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_MCP_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_MCP_PRINCIPAL_RATE_LIMIT: '0',
};
/** A fixed value of the exact `hlx_` key shape, for the pinned examples. */
const FIXED_KEY = `hlx_${'A'.repeat(43)}`;

type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';
const FIELD_TYPES = {
  objective: ['string'],
  constraints: ['array'],
  database_scope: ['array'],
  completion_contract: ['object'],
  budget: ['object'],
  'completion_contract.min_evidence_refs': ['number'],
  'completion_contract.require_terminal_authority': ['boolean'],
  'completion_contract.required_output_fields': ['array'],
  'completion_contract.max_unresolved_requirements': ['number'],
  'completion_contract.allow_conflicts': ['boolean'],
  'budget.max_steps': ['number'],
  'budget.expires_in_seconds': ['number'],
} as const satisfies Record<string, readonly JsonType[]>;
type Field = keyof typeof FIELD_TYPES;
const FIELDS = Object.keys(FIELD_TYPES) as Field[];

const NUMERIC_BOUNDS = {
  'completion_contract.min_evidence_refs': CONTRACT_BOUNDS.min_evidence_refs,
  'completion_contract.max_unresolved_requirements': CONTRACT_BOUNDS.max_unresolved_requirements,
  'budget.max_steps': BUDGET_BOUNDS.max_steps,
  'budget.expires_in_seconds': BUDGET_BOUNDS.expires_in_seconds,
} as const;
type NumericField = keyof typeof NUMERIC_BOUNDS;

/** Returns a copy of `body` with `field` (one level of nesting at most) set to `value`. */
const setField = (body: JsonObject, field: string, value: Json): JsonObject => {
  const [outer, inner] = field.split('.') as [string, string | undefined];
  if (inner === undefined) return withKey(body, outer, value);
  const current = body[outer];
  const parent =
    current !== null && typeof current === 'object' && !Array.isArray(current) ? (current as JsonObject) : {};
  return withKey(body, outer, withKey(parent, inner, value));
};

/** A mutation that must turn a valid start request into a 400 `invalid_request`. */
type Mutation =
  | {
      readonly kind: 'unknown_field';
      readonly where: 'top' | 'completion_contract' | 'budget';
      readonly key: string;
      readonly value: Json;
    }
  | { readonly kind: 'wrong_type'; readonly field: Field; readonly value: Json }
  | { readonly kind: 'out_of_range'; readonly field: NumericField; readonly value: number | typeof INFINITY_MARKER }
  | { readonly kind: 'over_limit'; readonly field: Field; readonly value: Json }
  | {
      readonly kind: 'deep';
      readonly field: Field | 'unknown';
      readonly depth: number;
      readonly shape: 'array' | 'object';
    }
  | { readonly kind: 'not_an_object'; readonly raw: string };

const distinctScopes = (n: number): Json[] => Array.from({ length: n }, (_, i) => `scope_${i}`);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.oneof(
    fc.record({
      kind: fc.constant('unknown_field' as const),
      where: fc.constant('top' as const),
      key: unknownKey(START_KEYS),
      value: fc.jsonValue({ maxDepth: 2 }),
    }),
    fc.record({
      kind: fc.constant('unknown_field' as const),
      where: fc.constant('completion_contract' as const),
      key: unknownKey(CONTRACT_KEYS),
      value: fc.jsonValue({ maxDepth: 2 }),
    }),
    fc.record({
      kind: fc.constant('unknown_field' as const),
      where: fc.constant('budget' as const),
      key: unknownKey(BUDGET_KEYS),
      value: fc.jsonValue({ maxDepth: 2 }),
    }),
  ),
  fc.constantFrom(...FIELDS).chain((field) => {
    const allowed: readonly JsonType[] = FIELD_TYPES[field];
    const wrongItems = allowed.includes('array')
      ? [fc.array(jsonOfOtherType(['string']), { minLength: 1, maxLength: 3 })]
      : [];
    return fc.record({
      kind: fc.constant('wrong_type' as const),
      field: fc.constant(field),
      value: fc.oneof(jsonOfOtherType(allowed), ...wrongItems),
    });
  }),
  fc.constantFrom(...(Object.keys(NUMERIC_BOUNDS) as NumericField[])).chain((field) =>
    fc.record({
      kind: fc.constant('out_of_range' as const),
      field: fc.constant(field),
      value: fc.oneof(
        { weight: 9, arbitrary: outOfRangeNumber(NUMERIC_BOUNDS[field]) },
        { weight: 1, arbitrary: fc.constant(INFINITY_MARKER) },
      ),
    }),
  ),
  fc.oneof(
    fc.record({
      kind: fc.constant('over_limit' as const),
      field: fc.constant<Field>('objective'),
      value: fc.oneof(
        fc.integer({ min: 4001, max: 6000 }).map((n) => 'o'.repeat(n)),
        fc.constantFrom('', ' ', '\t\n  ', '\u3000'),
      ),
    }),
    fc.record({
      kind: fc.constant('over_limit' as const),
      field: fc.constant<Field>('constraints'),
      value: fc.oneof(
        fc.integer({ min: 33, max: 40 }).map((n): Json => Array.from({ length: n }, () => 'c')),
        fc.integer({ min: 1001, max: 1200 }).map((n): Json => ['ok', 'c'.repeat(n)]),
        fc.constant<Json>(['ok', '   ']),
      ),
    }),
    fc.record({
      kind: fc.constant('over_limit' as const),
      field: fc.constant<Field>('completion_contract.required_output_fields'),
      value: fc.oneof(
        fc.integer({ min: 33, max: 40 }).map((n): Json => Array.from({ length: n }, (_, i) => `f${i}`)),
        fc.integer({ min: 65, max: 80 }).map((n): Json => ['a'.repeat(n)]),
        fc.constantFrom<Json>(['Bad'], ['1a'], ['a-b'], [''], ['_a'], ['a b']),
      ),
    }),
    fc.record({
      kind: fc.constant('over_limit' as const),
      field: fc.constant<Field>('database_scope'),
      value: fc.oneof(
        fc.integer({ min: 17, max: 20 }).map(distinctScopes),
        fc.constantFrom<Json>(['research_library', 'research_library'], ['A'], ['a'], ['1ab'], ['a'.repeat(64)], ['']),
      ),
    }),
  ),
  fc.record({
    kind: fc.constant('deep' as const),
    field: fc.oneof(fc.constantFrom(...FIELDS), fc.constant('unknown' as const)),
    // From 2: one level of array around a string is a valid constraints or scope list.
    depth: fc.oneof(fc.integer({ min: 2, max: 60 }), fc.integer({ min: 65, max: 2500 })),
    shape: fc.constantFrom('array' as const, 'object' as const),
  }),
  fc.record({
    kind: fc.constant('not_an_object' as const),
    raw: fc.oneof(
      fc.constantFrom(
        'null',
        '[]',
        '[{}]',
        '"x"',
        '1',
        'true',
        '{"objective":"x"',
        '{"objective":"x",}',
        "{'objective':'x'}",
        '{"objective":"x"}{}',
        'NaN',
        ' ',
      ),
      fc.string({ maxLength: 40 }).filter((s) => !s.trim().startsWith('{')),
    ),
  }),
);

const applyMutation = (base: JsonObject, m: Mutation): string => {
  switch (m.kind) {
    case 'unknown_field':
      return serialize(
        m.where === 'top' ? withKey(base, m.key, m.value) : setField(base, `${m.where}.${m.key}`, m.value),
      );
    case 'wrong_type':
    case 'over_limit':
    case 'out_of_range':
      return serialize(setField(base, m.field, m.value));
    case 'deep': {
      const marker = '__helix_fuzz_deep__';
      const withMarker =
        m.field === 'unknown' ? withKey(base, 'nested_unknown', marker) : setField(base, m.field, marker);
      return serialize(withMarker).replace(`"${marker}"`, nestedJsonText(m.depth, m.shape));
    }
    case 'not_an_object':
      return m.raw;
  }
};

const expectInvalidRequest = (response: ApiResponse) => {
  expect(response.status, response.text).toBe(400);
  expect(response.body).toMatchObject({ schema: ERROR_SCHEMA, code: 'invalid_request', status: 400 });
};

describe('REST fuzz: run endpoints over real HTTP (docs/spec/security-test-matrix.md #19-#23)', () => {
  let h: TestHelix;
  let token: string;
  let sharedRunId: string;

  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, { env: NO_RATE_LIMITS });
    token = await h.key();
    const started = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey('fuzz'),
      body: { objective: 'A run the fuzzer may continue and cancel' },
    });
    expect(started.status).toBe(201);
    sharedRunId = started.body.run_id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('accepts every start request inside the contract bounds with 201 and the trimmed, defaulted values', async () => {
    await fc.assert(
      fc.asyncProperty(validStartRequest, async (request) => {
        const response = await api(h.url, 'POST', RUNS, { token, idempotencyKey: idemKey('valid'), body: request });
        expect(response.status, response.text).toBe(201);
        const run = response.body;
        expect(run).toMatchObject({ schema: 'helix.agent_run.v1', version: 1, lifecycle_status: 'waiting' });
        expect(run.objective).toBe((request.objective as string).trim());
        expect(run.constraints).toEqual(((request.constraints ?? []) as string[]).map((c) => c.trim()));
        expect(run.database_scope).toEqual([]);
        expect(run.completion_contract).toEqual({
          ...CONTRACT_DEFAULTS,
          ...(request.completion_contract as JsonObject | undefined),
        });
        expect(run.budget).toMatchObject({
          ...BUDGET_DEFAULTS,
          ...(request.budget as JsonObject | undefined),
          steps_used: 0,
        });
        expect(response.headers.get('location')).toBe(`${RUNS}/${run.run_id}`);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses every mutated start request (unknown field, wrong type, out of range, over a limit, deep nesting, not an object) with 400 invalid_request; a corrected resend under the same key is processed', async () => {
    await fc.assert(
      fc.asyncProperty(validStartRequest, mutation, async (base, m) => {
        const key = idemKey('mutated');
        const refused = await api(h.url, 'POST', RUNS, { token, idempotencyKey: key, rawBody: applyMutation(base, m) });
        expectInvalidRequest(refused);
        // Nothing was stored under the key: the valid request it was derived from is processed (docs/spec/security-test-matrix.md #29).
        const corrected = await api(h.url, 'POST', RUNS, { token, idempotencyKey: key, body: base });
        expect(corrected.status, corrected.text).toBe(201);
        expect(corrected.body.version).toBe(1);
      }),
      {
        numRuns: 200,
        examples: [
          [{ objective: 'x' }, { kind: 'unknown_field', where: 'top', key: 'version', value: 7 }],
          [
            { objective: 'x' },
            { kind: 'unknown_field', where: 'top', key: '__proto__', value: { status: 'completed' } },
          ],
          [{ objective: 'x' }, { kind: 'unknown_field', where: 'budget', key: 'constructor', value: 1 }],
          [{ objective: 'x' }, { kind: 'wrong_type', field: 'completion_contract', value: [] }],
          [{ objective: 'x' }, { kind: 'out_of_range', field: 'budget.max_steps', value: INFINITY_MARKER }],
          [{ objective: 'x' }, { kind: 'deep', field: 'unknown', depth: 10_000, shape: 'array' }],
        ],
      },
    );
  });

  /** Where a credential-shaped value is planted in one request. */
  type Placement =
    | {
        readonly where: 'x-request-id' | 'idempotency-key' | 'authorization' | 'unknown-key' | 'path';
        readonly credential: string;
      }
    | {
        readonly where: 'unknown-value' | 'refused-field' | 'instruction' | 'answer' | 'query-value' | 'query-key';
        readonly credential: string;
        readonly value: string;
      };

  const placement: fc.Arbitrary<Placement> = fc.oneof(
    fc.record({
      where: fc.constantFrom(
        'x-request-id' as const,
        'idempotency-key' as const,
        'authorization' as const,
        'unknown-key' as const,
      ),
      credential: credentialShaped,
    }),
    // Segments the router refuses by itself have their own property below.
    fc.record({
      where: fc.constant('path' as const),
      credential: credentialShaped.filter((c) => encodeURIComponent(c).length <= ROUTER_MAX_PARAM_LENGTH),
    }),
    embeddedCredential.chain(({ credential, value }) =>
      fc.record({
        where: fc.constantFrom(
          'unknown-value' as const,
          'refused-field' as const,
          'instruction' as const,
          'answer' as const,
          'query-value' as const,
          'query-key' as const,
        ),
        credential: fc.constant(credential),
        value: fc.constant(value),
      }),
    ),
  );

  const sendWithPlacement = async (p: Placement): Promise<ApiResponse> => {
    const run = `${RUNS}/${sharedRunId}`;
    switch (p.where) {
      case 'x-request-id':
        return api(h.url, 'GET', run, { token, headers: { 'x-request-id': p.credential } });
      case 'idempotency-key':
        return api(h.url, 'POST', RUNS, {
          token,
          idempotencyKey: p.credential,
          body: { objective: 'Keyed by a credential-shaped key' },
        });
      case 'authorization':
        return api(h.url, 'GET', run, {
          headers: { authorization: p.credential.startsWith('Bearer ') ? p.credential : `Bearer ${p.credential}` },
        });
      case 'unknown-key':
        return api(h.url, 'POST', RUNS, {
          token,
          idempotencyKey: idemKey(),
          rawBody: serialize(withKey({ objective: 'x' }, p.credential, 1)),
        });
      case 'unknown-value':
        return api(h.url, 'POST', RUNS, {
          token,
          idempotencyKey: idemKey(),
          body: { objective: 'x', budget: { max_steps: 3, note: p.value } },
        });
      case 'refused-field':
        // The field is valid, a sibling is not: the refusal must not carry the field back.
        return api(h.url, 'POST', RUNS, {
          token,
          idempotencyKey: idemKey(),
          body: { objective: p.value, constraints: [p.value], budget: { max_steps: p.value } },
        });
      case 'instruction':
        return api(h.url, 'POST', `${run}/continue`, {
          token,
          idempotencyKey: idemKey(),
          body: { expected_version: 999, instruction: p.value },
        });
      case 'answer':
        return api(h.url, 'POST', `${run}/continue`, {
          token,
          idempotencyKey: idemKey(),
          body: { expected_version: 999, answers: [{ question_id: p.value, value: p.value }] },
        });
      case 'query-value':
        return api(h.url, 'GET', `${run}/events${encodeQuery([['limit', p.value]])}`, { token });
      case 'query-key':
        return api(h.url, 'GET', `${run}/events${encodeQuery([[p.value, '1']])}`, { token });
      case 'path':
        return api(h.url, 'GET', `${RUNS}/${encodeURIComponent(p.credential)}/events`, { token });
    }
  };

  const expectNothingEchoed = (response: ApiResponse, planted: string) => {
    expect(response.status, response.text).toBeLessThan(500);
    expect(credentialEchoes(response, [planted, token]), `${response.status} ${response.text}`).toEqual([]);
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    if (response.status >= 400) expect(response.body?.schema, response.text).toBe(ERROR_SCHEMA);
  };

  it('never echoes a credential-shaped value planted in a header, body key or field, query string or path, on success or refusal', async () => {
    await fc.assert(
      fc.asyncProperty(placement, async (p) => expectNothingEchoed(await sendWithPlacement(p), p.credential)),
      { numRuns: 150 },
    );
  });

  const sendToSegment = (segment: string, op: 'events' | 'continue' | 'cancel' | 'inspect'): Promise<ApiResponse> => {
    const path = `${RUNS}/${segment}${op === 'inspect' ? '' : `/${op}`}`;
    return op === 'inspect' || op === 'events'
      ? api(h.url, 'GET', path, { token })
      : api(h.url, 'POST', path, {
          token,
          idempotencyKey: idemKey(),
          body: op === 'continue' ? { expected_version: 1, instruction: 'go' } : { expected_version: 1 },
        });
  };
  const segmentOperation = fc.constantFrom(
    'events' as const,
    'continue' as const,
    'cancel' as const,
    'inspect' as const,
  );
  const expectInVocabulary = (response: ApiResponse, status: number, codes: readonly string[]) => {
    expect(response.status, response.text).toBe(status);
    expect(response.body?.schema, response.text).toBe(ERROR_SCHEMA);
    expect(codes).toContain(response.body.code);
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
  };

  /**
   * Regression: a run-id segment over the router's 100-character parameter limit
   * (FST_ERR_MAX_PARAM_LENGTH, 414) or with a malformed escape (FST_ERR_BAD_URL, 400) is answered by
   * Fastify's default framework-error reply, outside Helix's error handler and onRequest hook: the
   * body quotes the whole request path, credential included, without the error schema, and the
   * response has no X-Request-Id, Cache-Control or Pragma. It happens before authentication.
   */
  it('never echoes a credential-shaped value in a run-id path segment the router refuses (over 100 characters, or a malformed escape)', async () => {
    const planted = fc.oneof(hlxKey, jwtLike).chain((credential) =>
      fc.record({
        credential: fc.constant(credential),
        segment: fc.constantFrom(
          `${credential}%ZZ`,
          `run_${credential}%`,
          `run_${credential}${'x'.repeat(ROUTER_MAX_PARAM_LENGTH)}`,
        ),
        op: segmentOperation,
      }),
    );
    await fc.assert(
      fc.asyncProperty(planted, async ({ credential, segment, op }) =>
        expectNothingEchoed(await sendToSegment(segment, op), credential),
      ),
      {
        numRuns: 50,
        examples: [
          [{ credential: FIXED_KEY, segment: `run_${FIXED_KEY}${'x'.repeat(60)}`, op: 'cancel' }],
          [{ credential: FIXED_KEY, segment: `${FIXED_KEY}%ZZ`, op: 'events' }],
        ],
      },
    );
  });

  type Target =
    | { readonly kind: 'shared' }
    | { readonly kind: 'fresh' }
    | { readonly kind: 'segment'; readonly segment: string };
  type Operation =
    | { readonly op: 'continue'; readonly body: Json; readonly key: string | null }
    | { readonly op: 'cancel'; readonly body: Json; readonly key: string | null }
    | { readonly op: 'events'; readonly query: readonly (readonly [string, string])[] };

  const target: fc.Arbitrary<Target> = fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'shared' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'fresh' as const }) },
    { weight: 3, arbitrary: routableRunIdSegment.map((segment) => ({ kind: 'segment' as const, segment })) },
  );

  // Weighted towards the current version of a fresh run (1) so that turns and cancels do happen.
  const expectedVersion: fc.Arbitrary<Json> = fc.oneof(
    { weight: 4, arbitrary: fc.constant(1) },
    { weight: 3, arbitrary: fc.integer({ min: 2, max: 8 }) },
    { weight: 2, arbitrary: outOfRangeNumber({ min: 1, max: Number.MAX_SAFE_INTEGER }) },
    { weight: 2, arbitrary: jsonOfOtherType(['number']) },
  );
  const answers: fc.Arbitrary<Json> = fc.oneof(
    { weight: 3, arbitrary: fc.constant<Json>([]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.record({ question_id: fc.string({ maxLength: 20 }), value: fc.jsonValue({ maxDepth: 2 }) }),
        { minLength: 1, maxLength: 3 },
      ),
    },
    { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 3 }) },
    { weight: 1, arbitrary: jsonOfOtherType(['array']) },
  );
  const text: fc.Arbitrary<Json> = fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '') },
    { weight: 1, arbitrary: fc.constantFrom('', '   ', 'x'.repeat(4001)) },
    { weight: 1, arbitrary: jsonOfOtherType(['string']) },
  );
  const idempotencyKeyValue: fc.Arbitrary<string | null> = fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.constant('fuzz-shared-key-0001') },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'short', 'has a space', '\tleading-tab', 'k'.repeat(201), 'é-latin1-key'),
    },
  );
  const mutationBody = (optional: Record<string, fc.Arbitrary<Json>>): fc.Arbitrary<Json> =>
    fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .record({ expected_version: expectedVersion, ...optional }, { requiredKeys: ['expected_version'] })
          .map((r) => r as Json),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ expected_version: expectedVersion, ...optional }, { requiredKeys: [] })
          .map((r) => r as Json),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.record({ expected_version: expectedVersion }),
            unknownKey([...Object.keys(optional), 'expected_version']),
            fc.jsonValue({ maxDepth: 1 }),
          )
          .map(([r, k, v]) => withKey(r, k, v)),
      },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    );

  const operation: fc.Arbitrary<Operation> = fc.oneof(
    fc.record({
      op: fc.constant('continue' as const),
      body: mutationBody({ instruction: text, answers }),
      key: idempotencyKeyValue,
    }),
    fc.record({ op: fc.constant('cancel' as const), body: mutationBody({ reason: text }), key: idempotencyKeyValue }),
    fc.record({ op: fc.constant('events' as const), query: queryPairs }),
  );

  const ALLOWED: Record<Operation['op'], readonly number[]> = {
    continue: [200, 400, 404, 409, 422],
    cancel: [200, 400, 404, 409, 422],
    events: [200, 400, 404],
  };

  /** What the events endpoint must answer: the run id is checked first, then the query, then ownership. */
  const expectedEventsStatus = (t: Target, query: Operation & { op: 'events' }): number => {
    if (t.kind !== 'segment') return eventsQueryIsValid(query.query) ? 200 : 400;
    let runId: string;
    try {
      runId = decodeURIComponent(t.segment);
    } catch {
      return 400;
    }
    if (!RUN_ID_PATTERN.test(runId)) return 400;
    return eventsQueryIsValid(query.query) ? 404 : 400;
  };

  it('continue, cancel and events answer only 200/400/404/409/422, in the error vocabulary, for any run id, version, answers or query', async () => {
    await fc.assert(
      fc.asyncProperty(target, operation, async (t, o) => {
        let segment: string;
        if (t.kind === 'shared') segment = sharedRunId;
        else if (t.kind === 'fresh') {
          const started = await api(h.url, 'POST', RUNS, {
            token,
            idempotencyKey: idemKey('fresh'),
            body: { objective: 'fresh fuzz target' },
          });
          segment = started.body.run_id;
        } else segment = t.segment;
        const base = `${RUNS}/${segment}`;
        const response =
          o.op === 'events'
            ? await api(h.url, 'GET', `${base}/events${encodeQuery(o.query)}`, { token })
            : await api(h.url, 'POST', `${base}/${o.op}`, {
                token,
                idempotencyKey: o.key ?? idemKey(o.op),
                rawBody: serialize(o.body),
              });
        expect(ALLOWED[o.op], `${response.status} ${response.text}`).toContain(response.status);
        if (response.status >= 400) expect(response.body?.schema, response.text).toBe(ERROR_SCHEMA);
        if (o.op === 'events') {
          expect(response.status, response.text).toBe(expectedEventsStatus(t, o));
          if (response.status === 200) expect(response.body.schema).toBe('helix.agent_run.event.v1.page');
        } else if (response.status === 200) {
          expect(response.body).toMatchObject({ schema: 'helix.agent_run.v1', run_id: segment });
        }
      }),
      {
        numRuns: 200,
        examples: [
          [{ kind: 'shared' }, { op: 'events', query: [['limit', '1e9']] }],
          [{ kind: 'shared' }, { op: 'events', query: [['after_seq', '١٢']] }],
        ],
      },
    );
  });

  /**
   * Regression: RUN_ID_PATTERN admits run ids of up to 204 characters, but the router
   * refuses a path parameter over 100 with its own 414 (FST_ERR_MAX_PARAM_LENGTH) before any hook
   * runs: not the error vocabulary, no X-Request-Id, no Cache-Control: no-store.
   */
  it('a well-formed run id longer than 100 characters is a 404 not_found in the error vocabulary', async () => {
    await fc.assert(
      fc.asyncProperty(overLongRunIdSegment, segmentOperation, async (segment, op) =>
        expectInVocabulary(await sendToSegment(segment, op), 404, ['not_found']),
      ),
      { numRuns: 50, examples: [[`run_${'a'.repeat(97)}`, 'events']] },
    );
  });

  /** Regression: the same for a malformed escape (FST_ERR_BAD_URL, Fastify's own 400 body). */
  it('a run-id segment with a malformed percent escape is a 400 in the error vocabulary', async () => {
    await fc.assert(
      fc.asyncProperty(malformedEscapeSegment, segmentOperation, async (segment, op) =>
        expectInVocabulary(await sendToSegment(segment, op), 400, ['invalid_run_id', 'invalid_request']),
      ),
      { numRuns: 50, examples: [['run_abcdefgh%ZZ', 'inspect']] },
    );
  });
});
