import { z } from 'zod';

export type JsonObject = Record<string, unknown>;

/**
 * The one derivation of a published JSON Schema (draft 2020-12) from the zod contract, shared by the
 * MCP tool catalog and the OpenAPI document. The `$schema` dialect marker is dropped: both embed the
 * schema in a document that already fixes the dialect. `io` picks the side: request schemas are
 * published as they are accepted (defaults optional), response schemas as they are produced.
 */
export const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonObject => {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonObject;
  return json;
};
