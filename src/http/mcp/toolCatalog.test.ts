import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi/document.js';
import { ToolCatalog } from './toolCatalog.js';
import { ROOM_TOOLS } from './tools/roomTools.js';
import { RUN_TOOLS } from './tools/runTools.js';

/**
 * The constructs the MCP Inspector's schema portability check warns about: a `type` array
 * (`["string","null"]`: single-`type` dialects such as Gemini function declarations reject it) and
 * an empty schema `{}` (it constrains nothing and reads as a forgotten constraint). Returns the
 * JSON path of each occurrence.
 */
const unportable = (value: unknown, path: string): string[] => {
  if (Array.isArray(value)) return value.flatMap((item, i) => unportable(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  const entries = Object.entries(value);
  return [
    ...(entries.length === 0 ? [`${path}: empty schema {}`] : []),
    ...entries.flatMap(([key, item]) => [
      ...(key === 'type' && Array.isArray(item) ? [`${path}.type: type array ${JSON.stringify(item)}`] : []),
      ...unportable(item, `${path}.${key}`),
    ]),
  ];
};

describe('published tool schemas are portable (MCP Inspector portability check)', () => {
  const catalog = new ToolCatalog([...RUN_TOOLS, ...ROOM_TOOLS], []);

  it('no tool inputSchema or outputSchema has a type array or an empty schema (run and room tools)', () => {
    expect(catalog.tools.map((t) => t.name)).toHaveLength(RUN_TOOLS.length + ROOM_TOOLS.length);
    const found = catalog.tools.flatMap((tool) => [
      ...unportable(tool.inputSchema, `${tool.name}.inputSchema`),
      ...unportable(tool.outputSchema, `${tool.name}.outputSchema`),
    ]);
    expect(found).toEqual([]);
  });

  it('nullable fields are anyOf branches and open objects say additionalProperties: true', () => {
    const start = catalog.tools.find((t) => t.name === 'helix_run_start');
    const branches = (start?.outputSchema?.anyOf ?? []) as { properties: Record<string, Record<string, unknown>> }[];
    const run = branches[0];
    expect(run?.properties.created_at).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(run?.properties.ownership?.additionalProperties).toBe(true);
  });

  it('the OpenAPI component schemas, derived the same way, are portable too', () => {
    const { components } = buildOpenApiDocument() as { components: { schemas: Record<string, unknown> } };
    expect(unportable(components.schemas, 'components.schemas')).toEqual([]);
  });
});
