import type { z } from 'zod';
import { jsonSchemaOf, type JsonObject } from '../../../api/jsonSchema.js';

/** One documented field: its dotted path (`answers[].value`), JSON type, and what the schema says of it. */
export interface FieldRow {
  readonly path: string;
  readonly type: string;
  readonly required: boolean;
  readonly limits: string;
  readonly defaultValue: string;
  readonly description: string;
}

type Schema = JsonObject & {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  $ref?: string;
};

const number = (n: number): string => (n === Number.MAX_SAFE_INTEGER ? '2^53-1' : n.toLocaleString('en-US'));
const code = (value: unknown): string => `\`${JSON.stringify(value)}\``;

/** `{anyOf: [X, {type: null}]}` is a nullable X; the other branches are a union (z.json() has six). */
const branches = (schema: Schema): Schema[] => schema.anyOf ?? [schema];
const isJsonValue = (schema: Schema): boolean => schema.$ref !== undefined || branches(schema).length >= 6;

const typeOf = (schema: Schema): string => {
  if (isJsonValue(schema)) return 'any JSON value';
  if (schema.anyOf !== undefined) return schema.anyOf.map(typeOf).join(' \\| ');
  if (schema.const !== undefined) return code(schema.const);
  if (schema.type === 'array') return `${schema.items === undefined ? 'any' : typeOf(schema.items)}[]`;
  return schema.type ?? 'any';
};

const range = (low: unknown, max: unknown, unit: string): string | undefined => {
  // z.int() states the safe-integer range on the output side; it bounds nothing a reader cares about.
  const min = low === Number.MIN_SAFE_INTEGER ? undefined : low;
  if (min === undefined && max === Number.MAX_SAFE_INTEGER) return undefined;
  if (typeof min === 'number' && typeof max === 'number') return `${number(min)}-${number(max)}${unit}`;
  if (typeof max === 'number') return `at most ${number(max)}${unit}`;
  if (typeof min === 'number') return `at least ${number(min)}${unit}`;
  return undefined;
};

/** A long vocabulary (the error codes) has its own table; naming its size is enough here. */
const enumOf = (values: unknown[]): string =>
  values.length > 16 ? `one of ${values.length} values` : `one of ${values.map(code).join(', ')}`;

/** The bounds a JSON Schema states, in words. Rules it cannot state (trimming, refinements) are prose. */
const limitsOf = (schema: Schema): string => {
  const own = branches(schema).find((b) => b.type !== 'null') ?? schema;
  const parts = [
    range(own.minLength, own.maxLength, ' characters'),
    range(own.minimum, own.maximum, ''),
    range(own.minItems, own.maxItems, ' items'),
    typeof own.pattern === 'string' ? `matches \`${own.pattern}\`` : undefined,
    Array.isArray(own.enum) ? enumOf(own.enum) : undefined,
    own.items?.pattern === undefined ? undefined : `each matches \`${String(own.items.pattern)}\``,
    own.items === undefined ? undefined : range(own.items.minLength, own.items.maxLength, ' characters each'),
  ];
  return parts.filter((p) => p !== undefined).join('; ');
};

const defaultOf = (schema: Schema): string => {
  if (!('default' in schema)) return '';
  const value = schema.default;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? 'all defaults' : code(value);
};

const rowsOf = (schema: Schema, prefix: string): FieldRow[] =>
  Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const path = `${prefix}${name}`;
    const object = branches(property).find((b) => b.type === 'object' && b.properties !== undefined);
    const element = property.type === 'array' && property.items?.properties !== undefined ? property.items : undefined;
    const row: FieldRow = {
      path,
      type: element === undefined ? typeOf(property) : 'object[]',
      // A field with a default may be omitted, whichever side of the schema is read.
      required: (schema.required?.includes(name) ?? false) && !('default' in property),
      limits: limitsOf(property),
      defaultValue: defaultOf(property),
      description: typeof property.description === 'string' ? property.description : '',
    };
    const nested = object ?? element;
    return [row, ...(nested === undefined ? [] : rowsOf(nested, element === undefined ? `${path}.` : `${path}[].`))];
  });

/**
 * Every field of a request (`input`: as accepted) or response (`output`: as produced) schema, in
 * declaration order, nested objects and array elements flattened into dotted paths. Read from the
 * same JSON Schema the OpenAPI document and the MCP tools publish, so the tables cannot drift.
 */
export const fieldRows = (schema: z.ZodType, io: 'input' | 'output'): FieldRow[] =>
  rowsOf(jsonSchemaOf(schema, io) as Schema, '');
