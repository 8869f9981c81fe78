import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

// Headers are set before any store access, so one dialect is enough.
const sqlite = storeFlavours().find((f) => f.name === 'sqlite')!;

/** What every answer carries, HTML or JSON, success or refusal (computed by helmet once, set on every answer). */
const expectCommonHeaders = (headers: Headers): void => {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('referrer-policy')).toBe('same-origin');
  expect(headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(headers.get('cache-control')).toBe('no-store');
};

/** A CSP header as a map of directive -> sources, so the test does not depend on order or spacing. */
const directivesOf = (headers: Headers): Record<string, string> =>
  Object.fromEntries(
    (headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources.join(' ')]),
  );

describe('security headers', () => {
  let h: TestHelix;
  beforeAll(async () => {
    h = await startTestHelix(sqlite, { env: { HELIX_AGENT_IP_RATE_LIMIT: '0' } });
  });
  afterAll(() => h.close());

  it('the account pages load only their own script and styles, post forms to themselves, and are never framed', async () => {
    for (const page of ['/account', '/account/sign-in?code=wrong']) {
      const res = await fetch(`${h.url}${page}`);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expectCommonHeaders(res.headers);
      expect(directivesOf(res.headers)).toEqual({
        'default-src': "'none'",
        'script-src': "'self'",
        'connect-src': "'self'",
        'style-src': "'unsafe-inline'",
        'form-action': "'self'",
        'frame-ancestors': "'none'",
        'base-uri': "'none'",
      });
    }
  });

  it('JSON answers allow nothing to load and nobody to frame them, refusals and unknown paths included', async () => {
    const answers = [
      await api(h.url, 'GET', '/healthz'),
      await api(h.url, 'GET', '/api/v1/agent-runs/run_missing'),
      await api(h.url, 'GET', '/api/v1/agent-runs/run_missing', { token: await h.key() }),
      await api(h.url, 'GET', '/no-such-path'),
      await api(h.url, 'GET', '/api/account/session/agent-bindings'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 400, 404, 401]);
    for (const answer of answers) {
      expectCommonHeaders(answer.headers);
      expect(directivesOf(answer.headers)).toEqual({ 'default-src': "'none'", 'frame-ancestors': "'none'" });
      // Headers only old browsers' documents heed are left off API answers.
      expect(answer.headers.get('x-download-options')).toBe(null);
    }
    const page = await fetch(`${h.url}/account`);
    expect(page.headers.get('x-download-options')).toBe('noopen');
  });

  it('a rate-limit refusal carries them too (helmet runs before the limiter)', async () => {
    const limited = await startTestHelix(sqlite, { env: { HELIX_AGENT_IP_RATE_LIMIT: '1' } });
    try {
      await api(limited.url, 'GET', '/no-such-path');
      const refused = await api(limited.url, 'GET', '/no-such-path');
      expect(refused.status).toBe(429);
      expectCommonHeaders(refused.headers);
      expect(directivesOf(refused.headers)).toEqual({ 'default-src': "'none'", 'frame-ancestors': "'none'" });
    } finally {
      await limited.close();
    }
  });
});
