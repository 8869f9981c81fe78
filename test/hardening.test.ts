import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { api, idemKey, startTestHelix, type ApiResponse, type TestHelix } from './support/harness.js';
import { rawMcp } from './support/mcpClient.js';
import { PRODUCTION_ENV } from './support/productionEnv.js';
import { storeFlavours } from './support/stores.js';

// Rate limiting and the HTTPS rule sit in front of the store, so one dialect is enough here.
const sqlite = storeFlavours().find((f) => f.name === 'sqlite')!;

const RUNS = '/api/v1/agent-runs';
const MISSING_RUN = `${RUNS}/run_doesnotexist`;
const BAD_KEY = `hlx_${'A'.repeat(43)}`;
const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

/** Matrix #35/#36 need limits of a handful of requests; everything else keeps its defaults. */
const OFF = {
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_MCP_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_MCP_PRINCIPAL_RATE_LIMIT: '0',
};

/** Production needs complete OAuth settings; nothing is fetched from these URLs unless a JWT is presented. */
const PRODUCTION = PRODUCTION_ENV;

const running: TestHelix[] = [];
const start = async (env: Record<string, string>): Promise<TestHelix> => {
  const h = await startTestHelix(sqlite, { env: { ...OFF, ...env } });
  running.push(h);
  return h;
};
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.close()));
});

const expectRateLimited = (res: { status: number; headers: Headers; body: any }): void => {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ schema: 'helix.agent_api.error.v1', code: 'rate_limited', status: 429 });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.body.retry_after_seconds).toBe(retryAfter);
  expect(res.headers.get('x-request-id')).toMatch(/\S/);
};

const statuses = async (n: number, send: (i: number) => Promise<{ status: number }>): Promise<number[]> => {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) out.push((await send(i)).status);
  return out;
};

const badTokenFrom = (h: TestHelix, forwardedFor?: string): Promise<ApiResponse> =>
  api(h.url, 'GET', MISSING_RUN, {
    token: BAD_KEY,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });

describe('per-IP pre-auth limits (docs/spec/security-test-matrix.md #35)', () => {
  it('a burst of bad tokens from one address is refused with 429 and Retry-After once over the limit', async () => {
    const h = await start({ HELIX_AGENT_IP_RATE_LIMIT: '5' });
    expect(await statuses(5, () => badTokenFrom(h))).toEqual([401, 401, 401, 401, 401]);
    const refused = await badTokenFrom(h);
    expectRateLimited(refused);
    // A valid key from the same address is refused too: the check runs before authentication.
    expect((await api(h.url, 'GET', MISSING_RUN, { token: await h.key() })).status).toBe(429);
  });

  it('rotating X-Forwarded-For from an untrusted client does not reset the count', async () => {
    const h = await start({ HELIX_AGENT_IP_RATE_LIMIT: '5' });
    const seen = await statuses(8, (i) => badTokenFrom(h, `198.51.100.${i + 1}`));
    expect(seen).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it('behind a trusted proxy (TRUST_PROXY=127.0.0.1) each forwarded client has its own bucket', async () => {
    const h = await start({ HELIX_AGENT_IP_RATE_LIMIT: '5', TRUST_PROXY: '127.0.0.1' });
    expect(await statuses(5, () => badTokenFrom(h, '203.0.113.1'))).toEqual([401, 401, 401, 401, 401]);
    expectRateLimited(await badTokenFrom(h, '203.0.113.1'));
    // The proxy appends the real peer; whatever the client put before it is not the counted address.
    expect((await badTokenFrom(h, '192.0.2.99, 203.0.113.1')).status).toBe(429);
    expect((await badTokenFrom(h, '203.0.113.2')).status).toBe(401);
    expect((await badTokenFrom(h)).status).toBe(401); // the proxy's own address is a client too
  });

  it('REST and MCP have separate buckets; health and discovery are not limited; unknown paths count as REST', async () => {
    const h = await start({ HELIX_AGENT_IP_RATE_LIMIT: '3', HELIX_MCP_IP_RATE_LIMIT: '2' });
    expect(await statuses(3, () => badTokenFrom(h))).toEqual([401, 401, 401]);
    expectRateLimited(await badTokenFrom(h));
    expect((await api(h.url, 'GET', '/no-such-path')).status).toBe(429);

    const mcp = () => rawMcp(h.url, TOOLS_LIST, { authorization: `Bearer ${BAD_KEY}` });
    expect(await statuses(2, mcp)).toEqual([401, 401]);
    const refused = await mcp();
    expectRateLimited(refused);
    expect((await api(h.url, 'GET', '/mcp')).status).toBe(429); // every method on /mcp shares the bucket

    for (let i = 0; i < 10; i += 1) {
      expect((await api(h.url, 'GET', '/healthz')).status).toBe(200);
      expect((await api(h.url, 'GET', '/.well-known/oauth-protected-resource')).status).toBe(200);
      expect((await api(h.url, 'GET', '/.well-known/oauth-protected-resource/mcp')).status).toBe(200);
    }
  });

  it('a limit of 0 turns the bucket off', async () => {
    const h = await start({});
    expect(new Set(await statuses(40, () => badTokenFrom(h)))).toEqual(new Set([401]));
  });
});

describe('per-principal limits (docs/spec/security-test-matrix.md #36)', () => {
  it('one principal over its REST limit gets 429 while another principal still gets 200', async () => {
    const h = await start({ HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '3' });
    const [a, b] = [await h.key(), await h.key()];
    const created = await api(h.url, 'POST', RUNS, {
      token: a,
      idempotencyKey: idemKey(),
      body: { objective: 'Rate limits' },
    });
    expect(created.status).toBe(201);
    const run = `${RUNS}/${created.body.run_id}`;
    expect(await statuses(2, () => api(h.url, 'GET', run, { token: a }))).toEqual([200, 200]);
    expectRateLimited(await api(h.url, 'GET', run, { token: a }));
    expect((await api(h.url, 'GET', run, { token: b })).status).toBe(200);
    // Unauthenticated requests are not charged to anyone's principal bucket.
    expect((await api(h.url, 'GET', run)).status).toBe(401);
    // The MCP principal bucket is separate (and off here).
    expect((await rawMcp(h.url, TOOLS_LIST, { authorization: `Bearer ${a}` })).status).toBe(200);
  });

  it('one principal over its MCP limit gets 429 while another principal and its REST budget are unaffected', async () => {
    const h = await start({ HELIX_MCP_PRINCIPAL_RATE_LIMIT: '2', HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '2' });
    const [a, b] = [await h.key(), await h.key()];
    const list = (token: string) => rawMcp(h.url, TOOLS_LIST, { authorization: `Bearer ${token}` });
    expect(await statuses(2, () => list(a))).toEqual([200, 200]);
    expectRateLimited(await list(a));
    expect((await list(b)).status).toBe(200);
    expect(await statuses(2, () => api(h.url, 'GET', MISSING_RUN, { token: a }))).toEqual([404, 404]);
    expect((await api(h.url, 'GET', MISSING_RUN, { token: a })).status).toBe(429);
  });
});

describe('HTTPS in production', () => {
  const HTTPS_REQUIRED = 'HTTPS is required in production.';

  it('refuses plain HTTP with 403 before authentication, even with a spoofed X-Forwarded-Proto; /healthz stays reachable', async () => {
    const h = await start(PRODUCTION);
    const plain = await api(h.url, 'GET', MISSING_RUN);
    expect(plain.status).toBe(403);
    expect(plain.body).toMatchObject({ status: 403, code: 'https_required', message: HTTPS_REQUIRED });
    expect(plain.headers.get('www-authenticate')).toBeNull();
    const spoofed = await api(h.url, 'GET', MISSING_RUN, { headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.status).toBe(403);
    expect((await rawMcp(h.url, TOOLS_LIST)).status).toBe(403);
    expect((await api(h.url, 'GET', '/.well-known/oauth-protected-resource')).status).toBe(403);
    const health = await api(h.url, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
  });

  it('admits X-Forwarded-Proto: https from a trusted proxy, and only that', async () => {
    const h = await start({ ...PRODUCTION, TRUST_PROXY: '127.0.0.1' });
    const viaProxy = await api(h.url, 'GET', MISSING_RUN, { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.status).toBe(401); // reached authentication
    expect(viaProxy.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="https:\/\/helix\.example\//);
    expect(
      (await api(h.url, 'GET', '/.well-known/oauth-protected-resource', { headers: { 'x-forwarded-proto': 'https' } }))
        .status,
    ).toBe(200);
    expect((await rawMcp(h.url, TOOLS_LIST, { 'x-forwarded-proto': 'https' })).status).toBe(401);
    expect((await api(h.url, 'GET', MISSING_RUN, { headers: { 'x-forwarded-proto': 'http' } })).status).toBe(403);
    expect((await api(h.url, 'GET', MISSING_RUN)).body).toMatchObject({
      status: 403,
      code: 'https_required',
      message: HTTPS_REQUIRED,
    });
  });

  it('outside production plain HTTP is served', async () => {
    const h = await start({});
    expect((await api(h.url, 'GET', MISSING_RUN)).status).toBe(401);
  });
});

describe('TRUST_PROXY configuration', () => {
  it('TRUST_PROXY=true is refused; exact addresses and a hop count of private proxies are accepted', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '9' })).toThrow(/hop count must be 1-5/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/not an address or CIDR/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5,10.0.1.0/24' }).trustProxy).toEqual({
      kind: 'addresses',
      entries: ['10.0.0.5', '10.0.1.0/24'],
    });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ kind: 'hops', hops: 1 });
  });

  it('with a hop count, a loopback proxy is believed about the client address and HTTPS', async () => {
    const h = await start({ ...PRODUCTION, TRUST_PROXY: '1' });
    const viaProxy = await api(h.url, 'GET', MISSING_RUN, { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.status).toBe(401); // counted as HTTPS: reached authentication
  });
});
