import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { openStore } from '../src/store/openStore.js';
import { startForwardingProxy } from './support/forwardingProxy.js';
import { api, startTestHelix } from './support/harness.js';
import { startCliServer, type ServerProcess } from './support/processes.js';
import { OAUTH_ENV } from './support/productionEnv.js';
import { accountDeps } from './support/accounts.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const PUBLIC_HOST = 'helix.example';
const AUDIENCE = `https://${PUBLIC_HOST}/mcp`;
const PROVIDER = 'mock-idp';
const TLS_DIR = new URL('./fixtures/tls/', import.meta.url);
const METADATA_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-protected-resource/mcp/device-check',
  '/.well-known/oauth-protected-resource/api/v1/agent-runs',
  '/.well-known/oauth-protected-resource/api/v1/rooms',
];

/**
 * The authorization server, with RFC 8707 resource indicators: the `resource` a client names at
 * the authorization and token endpoints becomes the access token's audience, as Auth0, Okta or
 * Keycloak do. Anything else would prove nothing about what Helix advertises.
 */
const startAuthorizationServer = async () => {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  const resourceByCode = new Map<string, string>();
  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: { url?: string }) => {
    const resource = new URL(req.url ?? '/', 'http://as').searchParams.get('resource');
    const code = redirect.url.searchParams.get('code');
    if (resource !== null && code !== null) resourceByCode.set(code, resource);
  });
  server.service.on(
    'beforeTokenSigning',
    (token: { payload: Record<string, unknown> }, req: { body?: Record<string, string> }) => {
      const body = req.body ?? {};
      const authorized = resourceByCode.get(body.code ?? '');
      // RFC 8707 §2.2: the token request's resource must be one the grant was authorized for.
      const resource = body.resource === authorized ? authorized : undefined;
      Object.assign(token.payload, {
        sub: 'user-1',
        tenant_id: 'acme',
        scope: body.scope ?? 'helix.agent_runs.read helix.agent_runs.write',
      });
      if (resource === undefined) delete token.payload.aud;
      else token.payload.aud = resource;
    },
  );
  await server.start(0, '127.0.0.1');
  return server;
};

/** Production refuses a plain-HTTP JWKS URL, so the key set is served over TLS on loopback. */
const startHttpsJwks = async (jwks: unknown) => {
  const server: Server = createHttpsServer(
    {
      key: readFileSync(new URL('loopback.key.pem', TLS_DIR)),
      cert: readFileSync(new URL('loopback.cert.pem', TLS_DIR)),
    },
    (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(jwks));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A pre-registered public client that "opens the browser" by recording the authorization URL. */
class RecordingProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private savedTokens: OAuthTokens | undefined;
  private verifier = '';
  readonly redirectUrl = 'http://127.0.0.1:1/callback';
  readonly clientMetadata = {
    client_name: 'helix-test',
    redirect_uris: [this.redirectUrl],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation(): OAuthClientInformationMixed {
    return { client_id: 'helix-test-client' };
  }
  tokens(): OAuthTokens | undefined {
    return this.savedTokens;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.savedTokens = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}

describe('production: the advertised resource is the audience tokens are checked against (issue 11, item 3)', () => {
  let idp: OAuth2Server;
  let jwks: Awaited<ReturnType<typeof startHttpsJwks>>;
  let helix: ServerProcess;
  let proxy: Awaited<ReturnType<typeof startForwardingProxy>>;
  let dir: string;

  beforeAll(async () => {
    idp = await startAuthorizationServer();
    jwks = await startHttpsJwks(await (await fetch(`${idp.issuer.url!}/jwks`)).json());
    dir = mkdtempSync(join(tmpdir(), 'helix-resource-'));
    const database = join(dir, 'helix.db');
    const store = await openStore(database);
    const deps = await accountDeps(store);
    const account = await createAccount(deps, { displayName: 'Alice' });
    await linkIdentity(deps, account.accountId, {
      issuer: idp.issuer.url!,
      tenantId: 'acme',
      provider: PROVIDER,
      subject: 'user-1',
    });
    await store.close();
    helix = await startCliServer(database, {
      NODE_ENV: 'production',
      NODE_EXTRA_CA_CERTS: new URL('loopback.cert.pem', TLS_DIR).pathname,
      TRUST_PROXY: '127.0.0.1',
      HELIX_AGENT_OAUTH_ISSUER: idp.issuer.url!,
      HELIX_AGENT_OAUTH_AUDIENCE: AUDIENCE,
      HELIX_AGENT_OAUTH_JWKS_URL: jwks.url,
      HELIX_AGENT_OAUTH_PROVIDER: PROVIDER,
      HELIX_AGENT_OAUTH_ALGORITHMS: 'RS256',
    });
    proxy = await startForwardingProxy(helix.url, PUBLIC_HOST);
  }, ceilingFor(1));
  afterAll(async () => {
    await proxy?.close();
    await helix?.kill('SIGTERM');
    await jwks?.close();
    await idp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every metadata document advertises the audience as the resource, on the configured origin', async () => {
    for (const path of METADATA_PATHS) {
      const res = await proxy.fetch(`https://${PUBLIC_HOST}${path}`);
      expect(res.status, path).toBe(200);
      expect(((await res.json()) as { resource: string }).resource, path).toBe(AUDIENCE);
    }
    const challenge = await proxy.fetch(`https://${PUBLIC_HOST}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="https://${PUBLIC_HOST}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('the official MCP client discovers the resource, obtains a token for it (PKCE S256, RFC 8707) and is admitted', async () => {
    const provider = new RecordingProvider();
    const serverUrl = new URL(AUDIENCE);
    const first = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider, fetch: proxy.fetch });
    await expect(new Client({ name: 'helix-test', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('resource')).toBe(AUDIENCE);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    // The "browser": the authorization server answers at once with a redirect carrying the code.
    const redirect = await fetch(authorizationUrl, { redirect: 'manual' });
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
    await first.finishAuth(code);
    const accessToken = provider.tokens()!.access_token;
    const [, payload] = accessToken.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString()).aud).toBe(AUDIENCE);

    const client = new Client({ name: 'helix-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider, fetch: proxy.fetch }));
    const started = await client.callTool({
      name: 'helix_run_start',
      arguments: { idempotency_key: 'resource-e2e-1', request: { objective: 'audience check' } },
    });
    expect(started.isError ?? false).toBe(false);
    expect((started.structuredContent as { version: number }).version).toBe(1);
    await client.close();
  });

  it('a token minted for what the metadata used to advertise (the bare origin) is refused', async () => {
    const token = await idp.issuer.buildToken({
      scopesOrTransform: (_header, payload) =>
        Object.assign(payload, {
          aud: `https://${PUBLIC_HOST}`,
          sub: 'user-1',
          tenant_id: 'acme',
          scope: 'helix.agent_runs.read',
        }),
    });
    const res = await proxy.fetch(`https://${PUBLIC_HOST}/api/v1/agent-runs/run_abcdefgh`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(401);
  });
});

describe('the advertised origin never comes from X-Forwarded-Host', () => {
  it('behind a trusted proxy without a public base URL, metadata and challenges use the admitted Host', async () => {
    const h = await startTestHelix(storeFlavours()[0]!, { env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const headers = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
      const metadata = await api(h.url, 'GET', '/.well-known/oauth-protected-resource/mcp', { headers });
      expect(metadata.status).toBe(200);
      expect(metadata.text).not.toContain('evil.example');
      expect(metadata.body.resource).toBe(`https://${new URL(h.url).host}/mcp`);
      const challenge = await api(h.url, 'GET', '/api/v1/agent-runs/run_abcdefgh', { headers });
      expect(challenge.headers.get('www-authenticate')).not.toContain('evil.example');
    } finally {
      await h.close();
    }
  });
});

describe('production configuration of the canonical resource', () => {
  const { HELIX_AGENT_OAUTH_AUDIENCE: _audience, ...oauthWithoutAudience } = OAUTH_ENV;
  const production = { NODE_ENV: 'production', ...oauthWithoutAudience };
  it('takes the public origin from the audience when HELIX_PUBLIC_BASE_URL is unset', () => {
    const config = loadConfig({ ...production, HELIX_AGENT_OAUTH_AUDIENCE: AUDIENCE });
    expect(config.publicBaseUrl).toBe(`https://${PUBLIC_HOST}`);
    expect(config.allowedHosts.has(PUBLIC_HOST)).toBe(true);
  });
  it.each([
    ['not a URL', { HELIX_AGENT_OAUTH_AUDIENCE: 'helix-api' }, /canonical resource URL/],
    ['plain http', { HELIX_AGENT_OAUTH_AUDIENCE: 'http://helix.example/mcp' }, /https URL/],
    [
      'another origin than the base URL',
      { HELIX_AGENT_OAUTH_AUDIENCE: AUDIENCE, HELIX_PUBLIC_BASE_URL: 'https://other.example' },
      /share one origin/,
    ],
  ])('refuses an audience that is %s', (_label, env, message) => {
    expect(() => loadConfig({ ...production, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, ...env })).toThrow(message);
  });
});
