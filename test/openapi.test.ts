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

  it('documents only operations the server routes: none falls through to "No such endpoint" or 405', async () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, unknown>>;
    let checked = 0;
    for (const [path, item] of Object.entries(paths)) {
      const concrete = path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => encodeURIComponent(EXAMPLES[name] ?? 'missing'));
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
