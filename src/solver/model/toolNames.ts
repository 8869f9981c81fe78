import { z } from 'zod';
import type { ToolSpec } from '../../model/port.js';
import type { Capability } from '../../sources/capability.js';
import { RESULT_TOOL_NAME } from './resultTool.js';

/** OpenAI function names (and what local servers accept): `^[a-zA-Z0-9_-]{1,64}$`. */
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_NAME = 64;

/**
 * The capabilities of one turn as model tools, with the table that maps a function name back to
 * its capability id. Only names in this table resolve: a name the model invents, or a capability
 * that exists but was not admitted for this run, is `tool_not_found` before anything is called.
 */
export interface ToolTable {
  readonly specs: readonly ToolSpec[];
  capabilityFor(functionName: string): string | undefined;
}

/** `research-library.search` → `research-library__search`: dots are not allowed, so they become `__`. */
export const functionNameFor = (capabilityId: string): string => {
  const name = capabilityId
    .replace(/\./g, '__')
    .replace(/[^a-zA-Z0-9_-]/g, '_')
    .slice(0, MAX_NAME);
  return name === '' ? 'tool' : name;
};

const parametersOf = (capability: Capability): Record<string, unknown> => {
  // The input view: fields with defaults are optional to the model, exactly as the capability parses them.
  const { $schema: _ignored, ...schema } = z.toJSONSchema(capability.input, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return schema;
};

export const buildToolTable = (menu: readonly Capability[]): ToolTable => {
  const byName = new Map<string, string>();
  const taken = new Set([RESULT_TOOL_NAME]);
  const specs: ToolSpec[] = [];
  for (const capability of menu) {
    let name = functionNameFor(capability.id);
    // Two ids could sanitize to one name; a numeric suffix keeps the table reversible.
    for (let n = 2; taken.has(name); n += 1) name = `${functionNameFor(capability.id).slice(0, MAX_NAME - 4)}_${n}`;
    if (!FUNCTION_NAME.test(name)) throw new Error(`no valid function name for capability ${capability.id}`);
    taken.add(name);
    byName.set(name, capability.id);
    specs.push({ name, description: capability.description, parameters: parametersOf(capability) });
  }
  return { specs, capabilityFor: (functionName) => byName.get(functionName) };
};
