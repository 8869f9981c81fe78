import { createPublicKey } from 'node:crypto';
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { startJwksServer } from './support/jwksServer.js';
import { OAUTH_ENV } from './support/productionEnv.js';
import { accountDeps } from './support/accounts.js';
import { followSignInLink } from './support/consoleSession.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const AUDIENCE = 'https://helix.example/mcp';
const PROVIDER = 'mock-idp';
const SCOPE = 'helix.agent_runs.read helix.agent_runs.write';

describe('production OAuth resource server against a real authorization server', () => {
  let idp: OAuth2Server;
  let jwks: Awaited<ReturnType<typeof startJwksServer>>;
  let h: TestHelix;
  let issuer: string;
  let accountId: string;

  const token = (claims: Record<string, unknown> = {}, options: { kid?: string; expiresIn?: number } = {}) =>
    idp.issuer.buildToken({
      ...(options.kid === undefined ? {} : { kid: options.kid }),
      expiresIn: options.expiresIn ?? 300,
      scopesOrTransform: (_header, payload) => {
        Object.assign(payload, { aud: AUDIENCE, sub: 'user-1', tenant_id: 'acme', scope: SCOPE }, claims);
        for (const [k, v] of Object.entries(claims)) if (v === undefined) delete payload[k];
      },
    });
  const inspect = (bearer: string, headers: Record<string, string> = {}) =>
    api(h.url, 'POST', RUNS, { token: bearer, idempotencyKey: idemKey(), body: { objective: 'oauth' }, headers });

  beforeAll(async () => {
    idp = new OAuth2Server();
    const rsa = await idp.issuer.keys.generate('RS256');
    const ec = await idp.issuer.keys.generate('ES256');
    await idp.start(0, '127.0.0.1');
    issuer = idp.issuer.url!;
    const publicSet = await (await fetch(`${issuer}/jwks`)).json();
    jwks = await startJwksServer(publicSet);
    expect([rsa.kid, ec.kid].every(Boolean)).toBe(true);
    h = await startTestHelix(storeFlavours()[0]!, {
      env: {
        HELIX_AGENT_OAUTH_ISSUER: issuer,
        HELIX_AGENT_OAUTH_AUDIENCE: AUDIENCE,
        HELIX_AGENT_OAUTH_JWKS_URL: jwks.url,
        HELIX_AGENT_OAUTH_PROVIDER: PROVIDER,
        HELIX_AGENT_OAUTH_ALGORITHMS: 'RS256,ES256',
      },
    });
    const store = h.testStore.store;
    const account = await createAccount(await accountDeps(store), {
      displayName: 'Alice',
      password: 'correct horse battery staple',
    });
    accountId = account.accountId;
    await linkIdentity(await accountDeps(store), accountId, {
      issuer,
      tenantId: 'acme',
      provider: PROVIDER,
      subject: 'user-1',
    });
  });
  afterAll(async () => {
    await h.close();
    await jwks.close();
    await idp.stop();
  });

  it('admits RS256 and ES256 tokens of a linked, bound subject', async () => {
    const rs = await inspect(await token());
    expect(rs.status, rs.text).toBe(201);
    const keys = ((await (await fetch(`${issuer}/jwks`)).json()) as { keys: { kid: string; alg: string }[] }).keys;
    const es = await inspect(await token({}, { kid: keys.find((k) => k.alg === 'ES256')!.kid }));
    expect(es.status, es.text).toBe(201);
  });

  it.each([
    ['wrong audience', { aud: 'https://other.example' }],
    ['wrong issuer', { iss: 'https://evil.example' }],
    ['missing audience', { aud: undefined }],
    ['missing subject', { sub: undefined }],
    ['missing tenant', { tenant_id: undefined }],
    ['expired', { exp: Math.floor(Date.now() / 1000) - 3600 }],
    ['not yet valid', { nbf: Math.floor(Date.now() / 1000) + 3600 }],
  ])('refuses a token with %s: 401 invalid_token', async (_label, claims) => {
    const res = await inspect(await token(claims));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('refuses a token from another issuer signed with its own keys', async () => {
    const other = new OAuth2Server();
    await other.issuer.keys.generate('RS256');
    await other.start(0, '127.0.0.1');
    try {
      const forged = await other.issuer.buildToken({
        scopesOrTransform: (_h, p) =>
          Object.assign(p, { aud: AUDIENCE, sub: 'user-1', tenant_id: 'acme', scope: SCOPE, iss: issuer }),
      });
      expect((await inspect(forged)).status).toBe(401);
    } finally {
      await other.stop();
    }
  });

  it('refuses alg=none and HS256 signed with the RSA public key (algorithm confusion)', async () => {
    const none = new UnsecuredJWT({ sub: 'user-1', tenant_id: 'acme', scope: SCOPE })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setExpirationTime('5m')
      .encode();
    expect((await inspect(none)).status).toBe(401);
    const [rsaJwk] = ((await (await fetch(`${issuer}/jwks`)).json()) as { keys: { alg: string }[] }).keys.filter(
      (k) => k.alg === 'RS256',
    );
    const publicPem = createPublicKey({ key: rsaJwk as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    const confused = await new SignJWT({ sub: 'user-1', tenant_id: 'acme', scope: SCOPE })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(String(publicPem)));
    const res = await inspect(confused);
    expect(res.status).toBe(401);
  });

  it('ignores jku/x5u/jwk headers and hostile kids without fetching anything new; random kids refetch at most once per cooldown', async () => {
    const attacker = await generateKeyPair('RS256');
    const before = jwks.hits();
    const headers = [
      { alg: 'RS256', kid: '../../dev/null' },
      { alg: 'RS256', kid: "' OR 1=1 --" },
      { alg: 'RS256', jku: 'http://127.0.0.1:9/evil-jwks' },
      { alg: 'RS256', x5u: 'http://127.0.0.1:9/evil-cert' },
      { alg: 'RS256', jwk: await exportJWK(attacker.publicKey) },
    ];
    for (const header of headers) {
      const forged = await new SignJWT({ sub: 'user-1', tenant_id: 'acme', scope: SCOPE })
        .setProtectedHeader(header)
        .setIssuer(issuer)
        .setAudience(AUDIENCE)
        .setExpirationTime('5m')
        .sign(attacker.privateKey);
      const res = await inspect(forged);
      expect(res.status).toBe(401);
    }
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const forged = await new SignJWT({ sub: 'user-1', tenant_id: 'acme' })
          .setProtectedHeader({ alg: 'RS256', kid: `random-${i}` })
          .setIssuer(issuer)
          .setAudience(AUDIENCE)
          .setExpirationTime('5m')
          .sign(attacker.privateKey);
        return (await inspect(forged)).status;
      }),
    );
    expect(new Set(results)).toEqual(new Set([401]));
    expect(jwks.hits() - before).toBeLessThanOrEqual(1);
  });

  it('a tenant header must match the signed tenant', async () => {
    expect((await inspect(await token(), { 'x-tenant-id': 'acme' })).status).toBe(201);
    const res = await inspect(await token(), { 'x-org-id': 'globex' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('tenant_mismatch');
  });

  it('a valid token of an unlinked subject, or of a linked subject under another tenant, is refused', async () => {
    const unlinked = await inspect(await token({ sub: 'user-2' }));
    expect(unlinked.status).toBe(403);
    expect(unlinked.body.code).toBe('account_not_linked');
    expect((await inspect(await token({ tenant_id: 'globex' }))).body.code).toBe('account_not_linked');
  });

  it("runs belong to the account's owner tuple: the same subject in another tenant cannot see them", async () => {
    const created = await inspect(await token());
    const store = h.testStore.store;
    await linkIdentity(await accountDeps(store), accountId, {
      issuer,
      tenantId: 'globex',
      provider: PROVIDER,
      subject: 'user-1',
    });
    const other = await api(h.url, 'GET', `${RUNS}/${created.body.run_id}`, {
      token: await token({ tenant_id: 'globex' }),
    });
    expect(other.status).toBe(404);
  });

  it('browser session: sign in with a one-time link, list sanitized bindings, revoke one, and the next bearer request fails', async () => {
    const code = await issueSignInLink(await accountDeps(h.testStore.store), accountId);
    const signIn = await followSignInLink(h.url, code);
    expect(signIn.status).toBe(303);
    const setCookie = signIn.headers.get('set-cookie') ?? '';
    // Attribute order is not significant (RFC 6265 §5.2); the set is exactly this one.
    const [pair, ...attributes] = setCookie.split('; ');
    expect(pair).toMatch(/^helix_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes.sort()).toEqual(['HttpOnly', 'Max-Age=43200', 'Path=/', 'SameSite=Lax']);
    const cookie = setCookie.split(';')[0]!;
    expect((await followSignInLink(h.url, code)).status).toBe(400);

    const listed = await api(h.url, 'GET', '/api/account/session/agent-bindings', { headers: { cookie } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.body).toMatchObject({ schema: 'helix.agent_account_bindings.v1', oauth_ready: true });
    expect(listed.text).not.toContain('user-1');
    expect(listed.text).not.toContain('"acme"');
    const binding = listed.body.bindings.find((b: { status: string }) => b.status === 'active');
    expect(binding).toMatchObject({ issuer, provider: PROVIDER, subject_included: false, bearer_included: false });
    expect(binding.tenant_ref).toMatch(/^tenant:sha256:[0-9a-f]{32}$/);

    const bearer = await token();
    expect((await inspect(bearer)).status).toBe(201);
    const acmeRef = listed.body.bindings.find(
      (b: { tenant_ref: string; status: string }) => b.status === 'active' && b.tenant_ref === binding.tenant_ref,
    ).binding_ref;
    const revoked = await api(h.url, 'DELETE', `/api/account/session/agent-bindings/${encodeURIComponent(acmeRef)}`, {
      headers: { cookie },
    });
    expect(revoked.body).toMatchObject({
      binding_ref: acmeRef,
      binding_status: 'revoked',
      revocation_status: 'revoked',
      answer_authority: false,
    });
    const after = await inspect(bearer);
    expect(after.status).toBe(403);
    expect(after.body.code).toBe('account_not_linked');
    const again = await api(h.url, 'DELETE', `/api/account/session/agent-bindings/${encodeURIComponent(acmeRef)}`, {
      headers: { cookie },
    });
    expect(again.body.revocation_status).toBe('already_revoked');
  });

  it("the binding API needs a live session and never reaches another account's bindings", async () => {
    expect((await api(h.url, 'GET', '/api/account/session/agent-bindings')).status).toBe(401);
    expect(
      (
        await api(h.url, 'GET', '/api/account/session/agent-bindings', {
          headers: { cookie: 'helix_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
        })
      ).status,
    ).toBe(401);
    const store = h.testStore.store;
    const bob = await createAccount(await accountDeps(store), { displayName: 'Bob' });
    const bobBinding = await linkIdentity(await accountDeps(store), bob.accountId, {
      issuer,
      tenantId: 'acme',
      provider: PROVIDER,
      subject: 'bob',
    });
    const code = await issueSignInLink(await accountDeps(store), accountId);
    const cookie = (await followSignInLink(h.url, code)).headers.get('set-cookie')!.split(';')[0]!;
    const theirs = await api(
      h.url,
      'DELETE',
      `/api/account/session/agent-bindings/${encodeURIComponent(bobBinding.bindingRef)}`,
      { headers: { cookie } },
    );
    const missing = await api(
      h.url,
      'DELETE',
      `/api/account/session/agent-bindings/agent-binding:sha256:${'0'.repeat(64)}`,
      { headers: { cookie } },
    );
    expect(theirs.status).toBe(404);
    expect(theirs.text).toBe(missing.text);
    expect((await store.read.bindings.findActive(bobBinding))?.status).toBe('active');
    const signOut = await fetch(`${h.url}/account/sign-out`, {
      method: 'POST',
      headers: { cookie, origin: new URL(h.url).origin },
      redirect: 'manual',
    });
    expect(signOut.status).toBe(303);
    expect((await api(h.url, 'GET', '/api/account/session/agent-bindings', { headers: { cookie } })).status).toBe(401);
  });

  it('password sign-in works with the right password only', async () => {
    const form = (password: string) =>
      fetch(`${h.url}/account/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(h.url).origin },
        body: new URLSearchParams({ account: accountId, password }),
        redirect: 'manual',
      });
    expect((await form('wrong password here')).status).toBe(401);
    const ok = await form('correct horse battery staple');
    expect(ok.status).toBe(303);
    expect(ok.headers.get('set-cookie')).toMatch(/^helix_session=/);
  });

  it('fails closed when the JWKS endpoint hangs: 503 within its timeout, never 200', async () => {
    const fresh = await startTestHelix(storeFlavours()[0]!, {
      env: {
        HELIX_AGENT_OAUTH_ISSUER: issuer,
        HELIX_AGENT_OAUTH_AUDIENCE: AUDIENCE,
        HELIX_AGENT_OAUTH_JWKS_URL: jwks.url,
        HELIX_AGENT_OAUTH_PROVIDER: PROVIDER,
        HELIX_AGENT_OAUTH_ALGORITHMS: 'RS256',
      },
    });
    jwks.hang(true);
    try {
      const keys = ((await (await fetch(`${issuer}/jwks`)).json()) as { keys: { kid: string; alg: string }[] }).keys;
      const rs256 = await token({}, { kid: keys.find((k) => k.alg === 'RS256')!.kid });
      const res = await api(fresh.url, 'POST', RUNS, {
        token: rs256,
        idempotencyKey: idemKey(),
        body: { objective: 'x' },
      });
      expect(res.status, res.text).toBe(503);
      expect(res.body.code).toBe('auth_unavailable');
      expect(res.headers.get('retry-after')).toBe('5');
      // The JWKS endpoint never answers: the 503 arriving at all is Helix's own bounded fetch giving up.
    } finally {
      jwks.hang(false);
      await fresh.close();
    }
  });
});

describe('OAuth configuration fails closed', () => {
  const full = { ...OAUTH_ENV, HELIX_AGENT_OAUTH_PROVIDER: 'idp' };
  it('production without OAuth, or with half of it, refuses to start with a message naming what is missing', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /refuses to serve the protected resource without OAuth/,
    );
    const { HELIX_AGENT_OAUTH_JWKS_URL: _dropped, ...half } = full;
    expect(() => loadConfig({ NODE_ENV: 'production', ...half })).toThrow(/incomplete: set HELIX_AGENT_OAUTH_JWKS_URL/);
    expect(() => loadConfig({ ...full, HELIX_AGENT_OAUTH_ALGORITHMS: 'HS256' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', ...full, HELIX_AGENT_OAUTH_JWKS_URL: 'http://issuer.example/jwks' }),
    ).toThrow(/https/);
    expect(loadConfig({ NODE_ENV: 'production', ...full }).oauth?.algorithms).toEqual(['RS256']);
  });
});

describe('a JWKS endpoint that answers badly', () => {
  it.each([
    ['an error status', 500, 'application/json', '{"error":"boom"}'],
    ['a body that is not JSON', 200, 'text/html', '<html>maintenance</html>'],
  ])('fails closed with 503 auth_unavailable on %s', async (_label, status, type, body) => {
    const { createServer } = await import('node:http');
    const server = createServer((_q, r) => r.writeHead(status, { 'content-type': type }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const idp = new OAuth2Server();
    await idp.issuer.keys.generate('RS256');
    await idp.start(0, '127.0.0.1');
    const h = await startTestHelix(storeFlavours()[0]!, {
      env: {
        HELIX_AGENT_OAUTH_ISSUER: idp.issuer.url!,
        HELIX_AGENT_OAUTH_AUDIENCE: AUDIENCE,
        HELIX_AGENT_OAUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks`,
        HELIX_AGENT_OAUTH_PROVIDER: PROVIDER,
        HELIX_AGENT_OAUTH_ALGORITHMS: 'RS256',
      },
    });
    try {
      const bearer = await idp.issuer.buildToken({
        scopesOrTransform: (_h, p) =>
          Object.assign(p, { aud: AUDIENCE, sub: 'user-1', tenant_id: 'acme', scope: SCOPE }),
      });
      const res = await api(h.url, 'POST', RUNS, {
        token: bearer,
        idempotencyKey: idemKey(),
        body: { objective: 'x' },
      });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('auth_unavailable');
    } finally {
      await h.close();
      await idp.stop();
      server.close();
    }
  });
});
