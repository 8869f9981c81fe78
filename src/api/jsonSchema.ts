import { z } from 'zod';

export type JsonObject = Record<string, unknown>;

/** Keywords whose value is one subschema, an array of subschemas, or a map of name -> subschema. */
const ONE_SCHEMA = ['additionalProperties', 'items', 'not', 'propertyNames', 'contains', 'if', 'then', 'else'];
const SCHEMA_LIST = ['anyOf', 'allOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
/** Annotations stay on the outer schema when a type array is split into `anyOf` branches. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{"type": ["string", "null"], ...}` becomes `{"anyOf": [{"type": "string", ...}, {"type": "null"}]}`:
 * a client that maps a tool schema onto a single-`type` dialect (Gemini function declarations) may
 * reject a type array. The constraints travel with their type; annotations stay outside.
 */
const splitTypeArray = (schema: JsonObject): JsonObject => {
  const { type, ...rest } = schema;
  if (!Array.isArray(type)) return schema;
  const outer = Object.fromEntries(Object.entries(rest).filter(([k]) => ANNOTATIONS.has(k)));
  const constraints = Object.fromEntries(Object.entries(rest).filter(([k]) => !ANNOTATIONS.has(k)));
  const branches = (type as string[]).map((t) => (t === 'null' ? { type: t } : { type: t, ...constraints }));
  return { ...outer, anyOf: branches };
};

/**
 * Rewrites one schema, recursing through the keywords that hold subschemas (never through data:
 * `default`, `const` and `enum` values are copied as they are). An empty `{}` under
 * `additionalProperties` is spelled `true`: both admit anything, but `{}` reads as a forgotten
 * constraint to schema linters such as the MCP Inspector's portability check.
 */
const portable = (schema: JsonObject): JsonObject => {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && isObject(value) && Object.keys(value).length === 0) out[key] = true;
    else if (ONE_SCHEMA.includes(key) && isObject(value)) out[key] = portable(value);
    else if (SCHEMA_LIST.includes(key) && Array.isArray(value))
      out[key] = value.map((s) => (isObject(s) ? portable(s) : s));
    else if (SCHEMA_MAP.includes(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, s]) => [k, isObject(s) ? portable(s) : s]));
    else out[key] = value;
  }
  return splitTypeArray(out);
};

/**
 * The one derivation of a published JSON Schema (draft 2020-12) from the zod contract, shared by the
 * MCP tool catalog and the OpenAPI document. The `$schema` dialect marker is dropped: both embed the
 * schema in a document that already fixes the dialect. `io` picks the side: request schemas are
 * published as they are accepted (defaults optional), response schemas as they are produced. The
 * result is made portable (no type arrays, no empty `additionalProperties`) without changing what
 * it admits.
 */
export const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonObject => {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonObject;
  return portable(json);
};
