import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaOf } from './jsonSchema.js';

describe('jsonSchemaOf: the portable derivation', () => {
  it('splits a nullable type into anyOf branches, constraints on the typed branch, annotations outside', () => {
    const schema = z.object({
      at: z.string().nullable().describe('an instant'),
      note: z.string().max(10).nullable(),
    });
    expect(jsonSchemaOf(schema, 'output').properties).toEqual({
      at: { description: 'an instant', anyOf: [{ type: 'string' }, { type: 'null' }] },
      note: { anyOf: [{ type: 'string', maxLength: 10 }, { type: 'null' }] },
    });
  });

  it('spells an open object additionalProperties: true, and leaves data (defaults) and field names alone', () => {
    const schema = z.strictObject({
      fields: z.record(z.string(), z.unknown()).default({}),
      // Field names that look like keywords are properties, not keywords.
      type: z.array(z.string()),
      additionalProperties: z.boolean(),
    });
    const json = jsonSchemaOf(schema, 'input') as {
      properties: Record<string, Record<string, unknown>>;
      additionalProperties?: unknown;
    };
    expect(json.properties.fields).toEqual({
      default: {},
      type: 'object',
      propertyNames: { type: 'string' },
      additionalProperties: true,
    });
    expect(json.properties.type).toEqual({ type: 'array', items: { type: 'string' } });
    expect(json.properties.additionalProperties).toEqual({ type: 'boolean' });
    expect(json.additionalProperties).toBe(false);
  });
});
