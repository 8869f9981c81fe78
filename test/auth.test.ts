import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const SECRET = 'a-local-development-secret-of-40-chars!!';

const localToken = (
  claims: Record<string, unknown>,
  options: { secret?: string; expiresIn?: string; issuer?: string } = {},
) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(options.issuer ?? 'helix-local')
    .setSubject('user-1')
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(new TextEncoder().encode(options.secret ?? SECRET));

describe.each(storeFlavours())('authentication and ownership on $name', (flavour) => {
  let h: TestHelix;
  let owner: string;
  let runId: string;
  beforeAll(async () => {
    h = await startTestHelix(flavour, {
      env: { HELIX_AGENT_ALLOW_LOCAL_HS256: '1', HELIX_AGENT_LOCAL_JWT_SECRET: SECRET },
    });
    owner = await h.key();
    runId = (await api(h.url, 'POST', RUNS, { token: owner, idempotencyKey: idemKey(), body: { objective: 'Owned' } }))
      .body.run_id;
  });
  afterAll(async () => h.close());

  it('no credentials: 401 with a bare Bearer challenge pointing at the resource metadata', async () => {
    const res = await api(h.url, 'GET', `${RUNS}/${runId}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${h.url}/.well-known/oauth-protected-resource"`,
    );
    expect(res.body).toMatchObject({ schema: 'helix.agent_api.error.v1', code: 'unauthorized', adr_code: -32000 });
  });

  it('unknown, malformed and revoked keys are all the same 401 invalid_token', async () => {
    const revoked = await h.key();
    const keys = await h.testStore.store.read.apiKeys.list();
    const { keyHash } = keys.at(-1)!;
    const record = await h.testStore.store.read.apiKeys.findByHash(keyHash);
    await h.testStore.store.read.apiKeys.revoke(record!.keyId, Date.now());
    const bodies = new Set<string>();
    for (const token of [`hlx_${'A'.repeat(43)}`, 'hlx_short', revoked, 'not-a-token', 'eyJhbGciOiJIUzI1NiJ9.e30.x']) {
      const res = await api(h.url, 'GET', `${RUNS}/${runId}`, { token });
      expect(res.status, token).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      bodies.add(res.text);
      expect(res.text).not.toContain(token);
    }
    expect(bodies.size).toBe(1);
  });

  it('a token in the query string never authenticates; two credentials are a 400', async () => {
    const query = await api(h.url, 'GET', `${RUNS}/${runId}?access_token=${owner}`);
    expect(query.status).toBe(401);
    const both = await api(h.url, 'GET', `${RUNS}/${runId}?access_token=${owner}`, { token: owner });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('multiple_credentials');
    expect(both.text).not.toContain(owner);
  });

  it('a valid key without the needed scope is 403 insufficient_scope naming the scope', async () => {
    const reader = await h.key('helix.agent_runs.read');
    const res = await api(h.url, 'POST', RUNS, { token: reader, idempotencyKey: idemKey(), body: { objective: 'x' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', scope: 'helix.agent_runs.write', adr_code: -32001 });
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="helix.agent_runs.write", resource_metadata="${h.url}/.well-known/oauth-protected-resource"`,
    );
    // Same tenant and account: the same owner, so the read-only key may read the run.
    expect((await api(h.url, 'GET', `${RUNS}/${runId}`, { token: reader })).status).toBe(200);
  });

  it('ADR-0004 scopes map onto operations: run.cancel cancels but cannot start; run.read reads', async () => {
    const adr = await h.key('run.read run.cancel');
    expect(
      (await api(h.url, 'POST', RUNS, { token: adr, idempotencyKey: idemKey(), body: { objective: 'x' } })).status,
    ).toBe(403);
    const mine = (
      await api(h.url, 'POST', RUNS, {
        token: await h.key('run.create run.read', 'tenant-a', 'account-a'),
        idempotencyKey: idemKey(),
        body: { objective: 'adr' },
      })
    ).body;
    expect(mine.version).toBe(1);
    expect((await api(h.url, 'GET', `${RUNS}/${mine.run_id}`, { token: adr })).status).toBe(200);
    const cancel = await api(h.url, 'POST', `${RUNS}/${mine.run_id}/cancel`, {
      token: adr,
      idempotencyKey: idemKey(),
      body: { expected_version: 1 },
    });
    expect(cancel.status).toBe(200);
    const wildcard = await h.key('aep:*');
    expect((await api(h.url, 'GET', `${RUNS}/${mine.run_id}`, { token: wildcard })).status).toBe(200);
  });

  it("another owner's run is a 404 byte-identical to a run that does not exist, for every operation", async () => {
    const stranger = await h.key(undefined, 'tenant-b', 'account-b');
    const sameTenantOtherAccount = await h.key(undefined, 'tenant-a', 'account-z');
    for (const token of [stranger, sameTenantOtherAccount]) {
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['GET', '/events', undefined],
        ['GET', '/evidence', undefined],
        ['POST', '/continue', { expected_version: 1, instruction: 'steal' }],
        ['POST', '/cancel', { expected_version: 1 }],
      ] as const) {
        const theirs = await api(h.url, method, `${RUNS}/${runId}${suffix}`, {
          token,
          idempotencyKey: 'same-key-123',
          body,
          headers: { 'x-request-id': 'fixed-id' },
        });
        const none = await api(h.url, method, `${RUNS}/run_doesnotexist1${suffix}`, {
          token,
          idempotencyKey: 'same-key-123',
          body,
          headers: { 'x-request-id': 'fixed-id' },
        });
        expect(theirs.status, `${method} ${suffix}`).toBe(404);
        expect(theirs.text).toBe(none.text.replace('run_doesnotexist1', runId));
        expect(theirs.text).toBe(none.text);
      }
    }
    const still = await api(h.url, 'GET', `${RUNS}/${runId}`, { token: owner });
    expect(still.body).toMatchObject({ version: 1, lifecycle_status: 'waiting' });
  });

  it('a tenant header must match the signed tenant and never establishes one', async () => {
    const match = await api(h.url, 'GET', `${RUNS}/${runId}`, { token: owner, headers: { 'x-tenant-id': 'tenant-a' } });
    expect(match.status).toBe(200);
    for (const header of ['x-tenant-id', 'x-customer-id', 'x-org-id']) {
      const res = await api(h.url, 'GET', `${RUNS}/${runId}`, { token: owner, headers: { [header]: 'tenant-b' } });
      expect(res.status, header).toBe(403);
      expect(res.body.code).toBe('tenant_mismatch');
    }
  });

  it('local HS256 tokens work when enabled and are refused when forged, expired, unsigned or tenantless', async () => {
    const scope = 'helix.agent_runs.read helix.agent_runs.write';
    const good = await localToken({ tenant_id: 'tenant-jwt', scope });
    const created = await api(h.url, 'POST', RUNS, {
      token: good,
      idempotencyKey: idemKey(),
      body: { objective: 'jwt' },
    });
    expect(created.status).toBe(201);
    expect(
      (
        await api(h.url, 'GET', `${RUNS}/${created.body.run_id}`, {
          token: await localToken({ orgId: 'tenant-jwt', scp: scope.split(' ') }),
        })
      ).status,
    ).toBe(200);
    const bad = [
      await localToken({ tenant_id: 'tenant-jwt', scope }, { secret: 'another-secret-that-is-long-enough-x' }),
      await localToken({ tenant_id: 'tenant-jwt', scope }, { expiresIn: '-5m' }),
      await localToken({ tenant_id: 'tenant-jwt', scope }, { issuer: 'https://evil.example' }),
      await localToken({ scope }),
      new UnsecuredJWT({ tenant_id: 'tenant-jwt', scope, sub: 'user-1' })
        .setIssuer('helix-local')
        .setExpirationTime('5m')
        .encode(),
    ];
    for (const token of bad) {
      const res = await api(h.url, 'GET', `${RUNS}/${created.body.run_id}`, { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_token');
    }
  });
});

describe('configuration fails closed', () => {
  it('refuses local HS256 in production and a short secret anywhere', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', HELIX_AGENT_ALLOW_LOCAL_HS256: '1', HELIX_AGENT_LOCAL_JWT_SECRET: SECRET }),
    ).toThrow(ConfigError);
    expect(() => loadConfig({ HELIX_AGENT_ALLOW_LOCAL_HS256: '1', HELIX_AGENT_LOCAL_JWT_SECRET: 'too-short' })).toThrow(
      /at least 32/,
    );
    expect(
      loadConfig({ HELIX_AGENT_ALLOW_LOCAL_HS256: '0', HELIX_AGENT_LOCAL_JWT_SECRET: 'x' }).localJwt,
    ).toBeUndefined();
  });

  it('clamps the turn timeout to 1,000-900,000 ms and rejects non-numbers', () => {
    expect(loadConfig({}).turnTimeoutMs).toBe(120_000);
    expect(loadConfig({ HELIX_AGENT_TURN_TIMEOUT_MS: '5' }).turnTimeoutMs).toBe(1_000);
    expect(loadConfig({ HELIX_AGENT_TURN_TIMEOUT_MS: '99999999' }).turnTimeoutMs).toBe(900_000);
    expect(() => loadConfig({ HELIX_AGENT_TURN_TIMEOUT_MS: '2m' })).toThrow(ConfigError);
  });

  it('reads the answer contract focus threshold as a decimal from 0 to 1 and refuses anything else', () => {
    expect(loadConfig({}).answerMinFocusCoverage).toBe(0.88);
    expect(loadConfig({ HELIX_ANSWER_MIN_FOCUS_COVERAGE: '.7' }).answerMinFocusCoverage).toBe(0.7);
    expect(loadConfig({ HELIX_ANSWER_MIN_FOCUS_COVERAGE: '1' }).answerMinFocusCoverage).toBe(1);
    for (const bad of ['1.5', '-0.1', 'high', '70%'])
      expect(() => loadConfig({ HELIX_ANSWER_MIN_FOCUS_COVERAGE: bad }), bad).toThrow(
        /HELIX_ANSWER_MIN_FOCUS_COVERAGE/,
      );
  });

  it('refuses unknown logical scopes in HELIX_AGENT_DATABASE_SCOPES', () => {
    expect(() => loadConfig({ HELIX_AGENT_DATABASE_SCOPES: 'research_library,everything' })).toThrow(/everything/);
    expect([...loadConfig({ HELIX_AGENT_DATABASE_SCOPES: ' research_library , public_web ' }).enabledScopes]).toEqual([
      'research_library',
      'public_web',
    ]);
  });
});
