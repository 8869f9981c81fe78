import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, ruleViolations } from './support/importGraph.js';

/**
 * The layers of src/ and what each may import (docs/architecture.md, "Layout"). Lower layers never
 * import higher ones; type-only imports count like any other, since they bind the same way when a
 * module moves. A new folder must be placed here before it can hold code.
 */
const LAYER_RULES: Readonly<Record<string, readonly string[]>> = {
  domain: [],
  version: [],
  logger: [],
  telemetry: ['version'],
  net: ['telemetry'],
  model: ['domain', 'telemetry', 'net'],
  store: ['domain', 'telemetry'],
  auth: ['domain', 'store'],
  accounts: ['domain', 'auth', 'store'],
  sources: ['domain', 'store', 'telemetry', 'net'],
  solver: ['domain', 'model', 'sources', 'telemetry'],
  api: ['domain'],
  providers: ['domain', 'model', 'store', 'net'],
  service: ['domain', 'accounts', 'api', 'auth', 'net', 'providers', 'solver', 'sources', 'store', 'telemetry'],
  notify: ['service', 'store'],
  config: ['domain', 'auth', 'model', 'providers', 'service', 'sources', 'store', 'telemetry', 'net'],
  client: ['api'],
  // HTTP and the CLI reach the store only through use cases; the CLI opens it through server/operatorDatabase.ts.
  http: ['domain', 'accounts', 'api', 'auth', 'config', 'providers', 'service', 'telemetry', 'version'],
  cli: [
    'domain',
    'api',
    'auth',
    'client',
    'config',
    'http',
    'model',
    'providers',
    'server',
    'service',
    'sources',
    'version',
  ],
  server: [
    'accounts',
    'auth',
    'config',
    'http',
    'logger',
    'model',
    'net',
    'notify',
    'providers',
    'service',
    'solver',
    'sources',
    'store',
    'telemetry',
    'version',
  ],
};

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const ARCHITECTURE_DOC = new URL('../docs/architecture.md', import.meta.url);

/** The Layout table of docs/architecture.md: layer -> the layers its last column names. */
const documentedRules = (markdown: string): Record<string, string[]> => {
  const rules: Record<string, string[]> = {};
  for (const line of markdown.split('\n')) {
    const layer = /^\| `src\/([a-z]+)(?:\/|\.ts)`/.exec(line)?.[1];
    if (layer === undefined) continue;
    const last = line
      .split(' | ')
      .at(-1)!
      .replace(/\s*\|\s*$/, '');
    rules[layer] = last === 'nothing' ? [] : last.split(', ');
  }
  return rules;
};

/** The Mermaid picture's edges, `a --> b`. */
const documentedEdges = (markdown: string): string[] =>
  [...markdown.matchAll(/^ {2}([a-z]+) --> ([a-z]+)$/gm)].map((m) => `${m[1]} --> ${m[2]}`).sort();

describe('the import structure of src/', () => {
  // src/config.ts and src/config/ are one layer, as are src/server.ts (the composition root) and its name.
  const graph = importGraph(SRC);
  const rules = LAYER_RULES;

  it('has no import cycle between modules, type-only imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('imports only along the allowed layer edges', () => {
    expect(ruleViolations(graph, rules)).toEqual([]);
  });

  it('docs/architecture.md shows exactly these rules, in its table and its picture', () => {
    const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
    expect(documentedRules(doc)).toEqual(
      Object.fromEntries(Object.entries(rules).map(([layer, allowed]) => [layer, [...allowed]])),
    );
    const edges = Object.entries(rules).flatMap(([layer, allowed]) => allowed.map((to) => `${layer} --> ${to}`));
    expect(documentedEdges(doc)).toEqual(edges.sort());
  });

  it('the checks fail on a planted forbidden edge and a planted cycle', () => {
    const planted = new Map([...graph].map(([from, to]) => [from, new Set(to)]));
    planted.get('domain/run.ts')!.add('service/runs/continueRun.ts');
    planted.get('service/runs/continueRun.ts')!.add('domain/run.ts');
    expect(ruleViolations(planted, rules)).toContain(
      'domain/run.ts -> service/runs/continueRun.ts: domain may not import service',
    );
    expect(importCycles(planted).some((cycle) => cycle.includes('domain/run.ts'))).toBe(true);
    planted.set('gadgets/widget.ts', new Set());
    expect(ruleViolations(planted, rules)).toContain(
      'gadgets/widget.ts: its layer "gadgets" is not in the rules table',
    );
  });
});
