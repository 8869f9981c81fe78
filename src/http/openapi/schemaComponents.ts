import type { z } from 'zod';
import { jsonSchemaOf, type JsonObject } from '../../api/jsonSchema.js';

/**
 * `components.schemas`, filled as operations reference zod schemas by name. A schema's own
 * `$defs` (zod emits them for recursive types such as `z.json()`) are hoisted beside it, because
 * `#/$defs/...` would resolve against the document root, not the schema, once embedded.
 */
export class SchemaComponents {
  private readonly schemas = new Map<string, JsonObject>();

  ref(name: string, schema: z.ZodType, io: 'input' | 'output'): JsonObject {
    if (!this.schemas.has(name)) {
      const { $defs, ...json } = jsonSchemaOf(schema, io) as JsonObject & { $defs?: Record<string, JsonObject> };
      const hoist = (value: JsonObject): JsonObject =>
        JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"#/components/schemas/${name}.`)) as JsonObject;
      this.schemas.set(name, hoist(json));
      for (const [defName, def] of Object.entries($defs ?? {})) this.schemas.set(`${name}.${defName}`, hoist(def));
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  toJSON(): JsonObject {
    return Object.fromEntries(this.schemas);
  }
}
