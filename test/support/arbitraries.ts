import fc from 'fast-check';
import { BUDGET_BOUNDS, CONTRACT_BOUNDS } from '../../src/domain/contract.js';
import { isCredentialShaped } from '../../src/domain/credentialShape.js';

/**
 * fast-check arbitraries for the fuzz suites (test/fuzz.*.test.ts): valid run requests generated
 * from the contract bounds, the values that must turn them into a 400, event query strings and
 * run-id path segments with their expected verdicts, credential-shaped values to plant, and the
 * oracle that says whether a response gave one back.
 */

export type Json = fc.JsonValue;
export type JsonObject = { [key: string]: Json };

export const START_KEYS = ['objective', 'constraints', 'database_scope', 'completion_contract', 'budget'] as const;
export const CONTRACT_KEYS = [
  'min_evidence_refs',
  'require_terminal_authority',
  'required_output_fields',
  'max_unresolved_requirements',
  'allow_conflicts',
] as const;
export const BUDGET_KEYS = ['max_steps', 'expires_in_seconds'] as const;

const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];
const base64url = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...BASE64URL), minLength, maxLength });

/** `hlx_` + 43 base64url characters: the shape of a real Helix API key. */
export const hlxKey = base64url(43, 43).map((s) => `hlx_${s}`);
/** A three-part compact JWS whose header starts like base64url JSON (`eyJ…`). */
export const jwtLike = fc
  .tuple(base64url(6, 40), base64url(8, 60), base64url(8, 60))
  .map(([header, payload, signature]) => `eyJ${header}.${payload}.${signature}`);
export const bearerLike = fc.oneof(hlxKey, jwtLike, base64url(12, 60)).map((token) => `Bearer ${token}`);
export const credentialShaped: fc.Arbitrary<string> = fc.oneof(hlxKey, jwtLike, bearerLike);

/** A credential-shaped value wrapped in harmless text, as a paste accident would look. */
export const embeddedCredential = fc
  .tuple(fc.constantFrom('', 'token: ', 'see ', '"'), credentialShaped, fc.constantFrom('', ' please', '\n', '"'))
  .map(([before, credential, after]) => ({ credential, value: `${before}${credential}${after}` }));

/** Object keys JavaScript gives every object: an `in` check against a plain object admits them. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
] as const;

/** Server-owned fields a caller must not set (docs/spec/security-test-matrix.md #19), plus near-misses of real names. */
const SUSPICIOUS_KEYS = [
  'version',
  'status',
  'ownership',
  'run_id',
  'lifecycle_status',
  'tenant_id',
  'account_id',
  'owner',
  'Objective',
  'objective ',
  '',
];

/** A key that is not in `known`, favouring prototype names and server-owned fields. */
export const unknownKey = (known: readonly string[]): fc.Arbitrary<string> =>
  fc
    .oneof(
      fc.constantFrom(...PROTOTYPE_KEYS),
      fc.constantFrom(...SUSPICIOUS_KEYS),
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'grapheme', maxLength: 10 }),
    )
    .filter((k) => !known.includes(k) && !isCredentialShaped(k));

/** Sets an own property, even one named `__proto__`, so JSON.stringify writes it. */
export const withKey = (object: JsonObject, key: string, value: Json): JsonObject => {
  const copy: JsonObject = { ...object };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
};

/** Text that is valid for `text(max)` in src/api/schemas.ts: nonblank after trimming, at most `max` units. */
const validText = (max: number): fc.Arbitrary<string> =>
  fc
    .oneof(
      { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 60 }) },
      { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }) },
      { weight: 1, arbitrary: fc.constantFrom('x'.repeat(max), `  ${'y'.repeat(max)}\t\n`, ' a ') },
    )
    .filter((s) => {
      const trimmed = s.trim();
      return trimmed.length >= 1 && trimmed.length <= max && !isCredentialShaped(s);
    });

const int = (bounds: { readonly min: number; readonly max: number }) =>
  fc.integer({ min: bounds.min, max: bounds.max });

export const validContract = fc.record(
  {
    min_evidence_refs: int(CONTRACT_BOUNDS.min_evidence_refs),
    require_terminal_authority: fc.boolean(),
    required_output_fields: fc.array(fc.stringMatching(/^[a-z][a-z0-9_]{0,63}$/), {
      maxLength: CONTRACT_BOUNDS.required_output_fields.maxItems,
    }),
    max_unresolved_requirements: int(CONTRACT_BOUNDS.max_unresolved_requirements),
    allow_conflicts: fc.boolean(),
  },
  { requiredKeys: [] },
);

export const validBudget = fc.record(
  { max_steps: int(BUDGET_BOUNDS.max_steps), expires_in_seconds: int(BUDGET_BOUNDS.expires_in_seconds) },
  { requiredKeys: [] },
);

/** A start request inside every bound of StartRunRequestSchema, with no data scopes. */
export const validStartRequest: fc.Arbitrary<JsonObject> = fc
  .record(
    {
      objective: validText(4000),
      constraints: fc.oneof(
        fc.array(validText(1000), { maxLength: 32 }),
        fc.array(fc.constant('c'.repeat(1000)), { minLength: 32, maxLength: 32 }),
      ),
      database_scope: fc.constant([] as Json[]),
      completion_contract: validContract,
      budget: validBudget,
    },
    { requiredKeys: ['objective'] },
  )
  .map((r) => r as JsonObject);

/** A JSON value whose type is not in `allowed`. */
export const jsonOfOtherType = (
  allowed: readonly ('string' | 'number' | 'boolean' | 'null' | 'array' | 'object')[],
): fc.Arbitrary<Json> => {
  const candidates: [string, fc.Arbitrary<Json>][] = [
    ['string', fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('1', 'true', '60', ''))],
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })],
  ];
  const others = candidates
    .filter(([type]) => !(allowed as readonly string[]).includes(type))
    .map(([, arbitrary]) => arbitrary);
  return fc.oneof(...others);
};

/** Integers and non-integers just outside, or far outside, the [min, max] range. */
export const outOfRangeNumber = (bounds: { readonly min: number; readonly max: number }): fc.Arbitrary<number> =>
  fc.oneof(
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: bounds.min - 1 }),
    bounds.max < Number.MAX_SAFE_INTEGER
      ? fc.integer({ min: bounds.max + 1, max: Number.MAX_SAFE_INTEGER })
      : fc.constant(2 ** 60),
    fc.constantFrom(bounds.min - 1, bounds.max + 1, bounds.min + 0.5, 1e300, -1e300, 2 ** 53 + 2),
    fc.double({ min: bounds.min, max: Math.min(bounds.max, 1e6), noNaN: true }).filter((d) => !Number.isInteger(d)),
  );

/** JSON text of arrays or objects `depth` levels deep around a string (built as text: no recursion). */
export const nestedJsonText = (depth: number, kind: 'array' | 'object'): string =>
  kind === 'array'
    ? `${'['.repeat(depth)}"leaf"${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}"leaf"${'}'.repeat(depth)}`;

/** Serialized with 1e400 where the marker stands, so the server parses Infinity. */
export const INFINITY_MARKER = '__helix_fuzz_infinity__';
export const serialize = (body: Json): string => JSON.stringify(body).replaceAll(`"${INFINITY_MARKER}"`, '1e400');

/** Strings that look numeric to a lax parser but are not plain decimal integers (or are out of range). */
export const TRICKY_QUERY_NUMBERS = [
  '1e9',
  '1e3',
  '-1',
  '+1',
  '0x10',
  '0b1',
  '0o7',
  '1.0',
  '1.',
  '.5',
  ' 1',
  '1 ',
  '',
  'NaN',
  'Infinity',
  'null',
  'true',
  '１２',
  '١٢',
  '๑',
  '9'.repeat(16),
  '9'.repeat(400),
  '0'.repeat(15),
  '0',
  '1',
  '50',
  '200',
  '201',
  '999999999999999',
  '9007199254740993',
] as const;

export type QueryPair = readonly [string, string];

/** Query pairs over after_seq/limit and strangers, with tricky, valid and arbitrary values. */
export const queryPairs: fc.Arbitrary<QueryPair[]> = fc.array(
  fc.tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('after_seq', 'limit') },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    ),
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...TRICKY_QUERY_NUMBERS) },
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 300 }).map(String) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
    ),
  ),
  { maxLength: 3 },
);

/** Encodes pairs the way a browser would (every name and value percent-encoded). */
export const encodeQuery = (pairs: readonly QueryPair[]): string =>
  pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;

/**
 * What ListEventsQuerySchema must decide for these pairs: only after_seq and limit, each at most
 * once, as 1-15 ASCII digits, limit within 1-200.
 */
export const eventsQueryIsValid = (pairs: readonly QueryPair[]): boolean => {
  const seen = new Set<string>();
  for (const [key, value] of pairs) {
    if ((key !== 'after_seq' && key !== 'limit') || seen.has(key)) return false;
    seen.add(key);
    if (!/^[0-9]{1,15}$/.test(value)) return false;
    if (key === 'limit' && (Number(value) < 1 || Number(value) > 200)) return false;
  }
  return true;
};

/** The router's (find-my-way's) default maxParamLength: longer path parameters never reach a handler. */
export const ROUTER_MAX_PARAM_LENGTH = 100;

const decodes = (segment: string): boolean => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};
const isDotSegment = (segment: string): boolean => ['.', '..'].includes(segment.toLowerCase().replaceAll('%2e', '.'));

/**
 * A run-id path segment the router hands to a handler: well-formed ids up to the router's
 * parameter limit, arbitrary text percent-encoded, and raw segments with valid `%` escapes.
 */
export const routableRunIdSegment: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 3, arbitrary: fc.stringMatching(/^run_[A-Za-z0-9._:-]{8,96}$/) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_]{0,12}(%[0-7][0-9A-Fa-f])?[A-Za-z0-9_]{0,12}$/) },
  )
  .filter(
    (segment) =>
      segment.length > 0 && segment.length <= ROUTER_MAX_PARAM_LENGTH && decodes(segment) && !isDotSegment(segment),
  );

/** A well-formed run id (RUN_ID_PATTERN admits up to 204 characters) longer than the router's parameter limit. */
export const overLongRunIdSegment: fc.Arbitrary<string> = fc
  .stringMatching(/^run_[A-Za-z0-9_:-]{97,200}$/)
  .filter((segment) => segment.length > ROUTER_MAX_PARAM_LENGTH);

/** A run-id path segment with a malformed percent escape (not two hex digits, or not UTF-8). */
export const malformedEscapeSegment: fc.Arbitrary<string> = fc
  .oneof(
    fc.stringMatching(/^run_[A-Za-z0-9_]{4,12}%[G-Zg-z][A-Za-z0-9_]{0,12}$/),
    fc.stringMatching(/^run_[A-Za-z0-9_]{8,12}%$/),
    fc.constantFrom('run_abcdefgh%FF', 'run_abcdefgh%E0%A4%A', 'run_abcdefgh%C0%80', '%ZZ'),
  )
  .filter((segment) => !decodes(segment));

/**
 * Where a response gives a credential back: the body or any header that is credential-shaped
 * (isCredentialShaped) or contains one of the planted literals. Empty means nothing was echoed.
 */
export const credentialEchoes = (
  response: { readonly text: string; readonly headers: Headers },
  planted: readonly string[],
): string[] => {
  const surfaces: [string, string][] = [
    ['body', response.text],
    ...[...response.headers].map(([name, value]): [string, string] => [`header ${name}`, value]),
  ];
  const found: string[] = [];
  for (const [where, value] of surfaces) {
    if (isCredentialShaped(value)) found.push(`${where} is credential-shaped`);
    if (planted.some((literal) => literal.length > 0 && value.includes(literal)))
      found.push(`${where} contains a planted value`);
  }
  return found;
};
