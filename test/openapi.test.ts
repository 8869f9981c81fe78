import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/http/openapi/document.js';
import { api, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

/** A well-formed value for each path parameter, so a request reaches its route, not the 404 handler. */
const EXAMPLES: Record<string, string> = {
  run_id: 'run_openapi-example-0001',
  provider_id: 'mp_AAAAAAAAAAAAAAAAAAAAAA',
  account_id: 'account-a',
  binding_ref: `agent-binding:sha256:${'0'.repeat(64)}`,
};

/**
 * Every `METHOD path` the running app registers, read from Fastify's own route tree
 * (`printRoutes({ commonPrefix: false })`: one node a line, four columns of tree drawing a level).
 */
const registeredRoutes = (tree: string): string[] => {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│├└─ ]*)(\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4 - 1;
    stack.length = depth;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(', ')) routes.push(`${method} ${stack.join('')}`);
  }
  return routes;
};

/** Registered but deliberately not REST: the MCP endpoint, the HTML account pages, implicit HEADs. */
const NOT_REST = (route: string): boolean =>
  route.startsWith('HEAD ') || / \/mcp(\/device-check|\/codex)?$/.test(route) || / \/account(\/|$)/.test(route);

describe('GET /openapi.json over real HTTP', () => {
  let h: TestHelix;
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!);
  });
  afterAll(async () => h.close());

  it('serves the generated document without credentials, with the usual headers', async () => {
    const res = await api(h.url, 'GET', '/openapi.json', { headers: { 'x-request-id': 'openapi-req-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-request-id')).toBe('openapi-req-1');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('documents every REST route the app registers, and only those', () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, unknown>>;
    const documented = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path.replace(/\{([a-z_]+)\}/g, ':$1')}`),
    );
    const registered = registeredRoutes(h.helix.app.printRoutes({ commonPrefix: false })).filter((r) => !NOT_REST(r));
    expect(registered.length).toBeGreaterThan(20);
    expect(new Set(documented)).toEqual(new Set(registered));
  });

  it('documents only operations the server routes: none falls through to "No such endpoint" or 405', async () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, unknown>>;
    let checked = 0;
    for (const [path, item] of Object.entries(paths)) {
      const concrete = path.replace(/\{([a-z_]+)\}/g, (_m, name: string) =>
        encodeURIComponent(EXAMPLES[name] ?? 'missing'),
      );
      for (const method of Object.keys(item)) {
        // No credential: a routed operation answers 401/200/…, an unrouted one the generic 404.
        const res = await api(h.url, method.toUpperCase(), concrete);
        expect(res.status, `${method} ${path}`).not.toBe(405);
        expect(res.body?.message, `${method} ${path}`).not.toBe('No such endpoint.');
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
