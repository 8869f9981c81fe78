import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

/**
 * docs/production.md tells an operator which paths the reverse proxy must forward (its checklist
 * step 1). A path left out falls through to whatever else the proxy serves, and that surface is
 * silently dead in production; so the list is checked against the route table the server built.
 */
const PRODUCTION_DOC = new URL('../docs/production.md', import.meta.url);

/** The proxy list: the first code span of each bullet between the `proxy-paths` markers. */
const proxyPatterns = (markdown: string): string[] => {
  const block = /<!-- proxy-paths -->\n([\s\S]*?)<!-- \/proxy-paths -->/.exec(markdown)?.[1];
  if (block === undefined) throw new Error('docs/production.md has no <!-- proxy-paths --> block');
  return [...block.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1] as string);
};

/** `…` ends a prefix pattern ("this path and everything under it"); anything else is one exact path. */
const covers = (pattern: string, url: string): boolean =>
  pattern.endsWith('…') ? url.startsWith(pattern.slice(0, -1)) : url === pattern;

describe('docs/production.md: the reverse-proxy list matches the routes the server registers', () => {
  let h: TestHelix;
  let urls: string[];
  let patterns: string[];
  beforeAll(async () => {
    // Every optional surface is on in the harness: rooms, providers and subject access.
    h = await startTestHelix(storeFlavours()[0]!);
    urls = [...new Set(h.helix.app.routeTable.map((r) => r.url))];
    patterns = proxyPatterns(readFileSync(PRODUCTION_DOC, 'utf8'));
  });
  afterAll(() => h?.close());

  it('the route table holds every surface (so a missing route cannot pass unnoticed)', () => {
    for (const surface of ['/healthz', '/mcp', '/api/v1/agent-runs', '/api/v1/rooms', '/account'])
      expect(urls, surface).toContain(surface);
    expect(urls.some((u) => u.startsWith('/api/room-ingress/'))).toBe(true);
    expect(urls.some((u) => u.startsWith('/api/room-actions/'))).toBe(true);
  });

  it('every registered route is forwarded by one line of the list', () => {
    expect(urls.filter((url) => !patterns.some((p) => covers(p, url)))).toEqual([]);
  });

  it('every line of the list forwards at least one registered route', () => {
    expect(patterns.filter((p) => !urls.some((url) => covers(p, url)))).toEqual([]);
  });

  it('parses the block it checks, and refuses a document without one', () => {
    expect(proxyPatterns('x\n<!-- proxy-paths -->\n- `/a…`: a\n- `/b`: b\n<!-- /proxy-paths -->\n')).toEqual([
      '/a…',
      '/b',
    ]);
    expect(() => proxyPatterns('# no list')).toThrow(/proxy-paths/);
    expect(covers('/mcp…', '/mcp/codex')).toBe(true);
    expect(covers('/healthz', '/healthz/x')).toBe(false);
  });
});
