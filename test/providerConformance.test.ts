import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, redactor } from '../scripts/deploymentProbe/redact.js';
import { admitTarget, ProbeConfigError, type ConfigErrorCode } from '../scripts/deploymentProbe/settings.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { LOOPBACK_OPT_IN, runProbeScript, type ProbeRun } from './support/probeProcess.js';
import { storeFlavours } from './support/stores.js';

const runProbe = (env: Record<string, string>): Promise<ProbeRun> =>
  runProbeScript('scripts/mcpProviderConformance.ts', env);

/** A loopback HTTP server that records every request line and answers with the handler. */
const startStub = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
  const seen: { method: string; url: string }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '' });
    req.resume();
    req.on('end', () => handler(req, res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

describe('mcp:provider-conformance against a real Helix', () => {
  let h: TestHelix;
  let token: string;

  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!);
    token = await h.key();
  });
  afterAll(async () => {
    await h.close();
  });

  it('without a token: metadata, challenge and GET pass; authenticated checks are not configured', async () => {
    const run = await runProbe({ CASIMIRBOT_MCP_PUBLIC_BASE_URL: h.url, ...LOOPBACK_OPT_IN });
    expect(run.code, run.stderr).toBe(0);
    expect(run.report).toMatchObject({ schema: 'casimirbot.mcp_provider_conformance.v1', target: h.url });
    expect(Date.parse(run.report!.generated_at)).not.toBeNaN();
    expect(run.status('discovery.agent_access_manifest')).toBe('skipped');
    expect(run.status('discovery.protected_resource_metadata')).toBe('passed');
    expect(run.status('discovery.protected_resource_metadata_mcp')).toBe('passed');
    // This Helix has no OAuth issuer configured: legal, but worth a warning rather than a failure.
    expect(run.status('discovery.protected_resource_metadata_mcp.authorization_servers')).toBe('warning');
    expect(run.status('mcp.unauthenticated_challenge')).toBe('passed');
    expect(run.status('mcp.get_not_allowed')).toBe('passed');
    // PCP-09, DC-01: the Device Check metadata advertises only helix.rooms.read; its challenge points there.
    expect(run.status('device_check.protected_resource_metadata')).toBe('passed');
    expect(run.status('device_check.metadata_scopes_only_rooms_read')).toBe('passed');
    expect(run.status('device_check.unauthenticated_challenge')).toBe('passed');
    for (const id of [
      'device_check.tools_list',
      'mcp.authenticated_initialize',
      'mcp.tools_list',
      'mcp.tools_security_schemes',
      'provider.openai',
      'provider.gemini',
    ]) {
      expect(run.status(id), id).toBe('not_configured');
    }
    const { summary, checks } = run.report!;
    expect(summary.failed).toBe(0);
    expect(Object.values(summary).reduce((a, b) => a + b, 0)).toBe(checks.length);
    expect(run.stderr).toMatch(/0 failed|passed/);
  });

  it('with a token (HELIX_ names): initialize, tools/list and security schemes pass; keys for a loopback target call no provider; no credential is printed', async () => {
    const openai = 'sk-proj-conformanceTestKey0123456789abcdef';
    const gemini = 'AIzaSyConformanceTestKey_0123456789';
    const run = await runProbe({
      HELIX_MCP_PUBLIC_BASE_URL: h.url,
      HELIX_MCP_CONFORMANCE_ALLOW_LOOPBACK_HTTP: '1',
      HELIX_MCP_ACCESS_TOKEN: token,
      OPENAI_API_KEY: openai,
      GEMINI_API_KEY: gemini,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.status('mcp.authenticated_initialize')).toBe('passed');
    expect(run.status('mcp.tools_list')).toBe('passed');
    expect(run.status('mcp.tools_security_schemes')).toBe('passed');
    // PCP-09, DC-02: /mcp/device-check lists exactly the one tool.
    expect(run.status('device_check.tools_list'), run.detail('device_check.tools_list')).toBe('passed');
    // The real providers call server_url from their own network: a loopback target is never sent to them.
    for (const id of ['provider.openai', 'provider.gemini']) {
      expect(run.status(id), id).toBe('skipped');
      expect(run.detail(id)).toContain('cannot reach a loopback target; no provider call was made');
    }
    for (const secret of [token, openai, gemini]) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
  });

  it('refuses plain http to a loopback host without the opt-in (exit 2, nothing reported)', async () => {
    const run = await runProbe({ CASIMIRBOT_MCP_PUBLIC_BASE_URL: h.url });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('[loopback_http_not_opted_in]');
  });

  it('refuses plain http to a non-loopback host even with the opt-in, before any request', async () => {
    for (const target of ['http://example.com', 'http://192.0.2.1']) {
      const run = await runProbe({
        CASIMIRBOT_MCP_PUBLIC_BASE_URL: target,
        ...LOOPBACK_OPT_IN,
        CASIMIRBOT_MCP_ACCESS_TOKEN: token,
      });
      expect(run.code, target).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('[plain_http_not_loopback]');
      expect(run.stderr).not.toContain(token);
    }
  });

  it('has no default target (exit 2)', async () => {
    const run = await runProbe({});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('[target_missing]');
  });
});

describe('mcp:provider-conformance: the metadata resource is the audience tokens are checked against', () => {
  /** A target whose two metadata documents name `resource(url)`; everything else is absent. */
  const metadataStub = (resource: (url: string) => string) => {
    let url = '';
    const stub = startStub((req, res) => {
      if (req.url?.startsWith('/.well-known/oauth-protected-resource')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            resource: resource(url),
            authorization_servers: ['https://login.example.com'],
            scopes_supported: ['helix.agent_runs.read', 'helix.agent_runs.write', 'helix.rooms.read'],
            bearer_methods_supported: ['header'],
          }),
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    return stub.then((s) => {
      url = s.url;
      return s;
    });
  };
  /** An unsigned JWT-shaped token: the probe reads its `aud`, the target would verify it. */
  const jwtFor = (aud: string | string[]) =>
    ['{"alg":"RS256","typ":"JWT"}', JSON.stringify({ aud, sub: 'probe' }), 'sig']
      .map((part, i) => (i < 2 ? Buffer.from(part).toString('base64url') : part))
      .join('.');

  it('a bare-origin resource fails without a token: the canonical resource is <origin>/mcp', async () => {
    const stub = await metadataStub((url) => url);
    try {
      const run = await runProbe({ CASIMIRBOT_MCP_PUBLIC_BASE_URL: stub.url, ...LOOPBACK_OPT_IN });
      expect(run.status('discovery.protected_resource_metadata')).toBe('failed');
      expect(run.report!.checks.find((c) => c.id === 'discovery.protected_resource_metadata')?.detail).toContain(
        `is not the canonical MCP resource ${stub.url}/mcp`,
      );
    } finally {
      await stub.close();
    }
  });

  it("with a JWT, the resource must be the token's audience: the canonical URL passes only when aud names it", async () => {
    const stub = await metadataStub((url) => `${url}/mcp`);
    try {
      const elsewhere = await runProbe({
        CASIMIRBOT_MCP_PUBLIC_BASE_URL: stub.url,
        ...LOOPBACK_OPT_IN,
        CASIMIRBOT_MCP_ACCESS_TOKEN: jwtFor('https://api.example.com/'),
      });
      expect(elsewhere.status('discovery.protected_resource_metadata_mcp')).toBe('failed');
      expect(
        elsewhere.report!.checks.find((c) => c.id === 'discovery.protected_resource_metadata_mcp')?.detail,
      ).toContain('is not the token audience https://api.example.com/');
      const matching = await runProbe({
        CASIMIRBOT_MCP_PUBLIC_BASE_URL: stub.url,
        ...LOOPBACK_OPT_IN,
        CASIMIRBOT_MCP_ACCESS_TOKEN: jwtFor(['https://other.example.com', `${stub.url}/mcp`]),
      });
      expect(matching.status('discovery.protected_resource_metadata')).toBe('passed');
      expect(matching.status('discovery.protected_resource_metadata_mcp')).toBe('passed');
    } finally {
      await stub.close();
    }
  });
});

describe('mcp:provider-conformance against a failing target', () => {
  it('reports failed checks and exits 1; a redirect is refused, not followed', async () => {
    const stub = await startStub((req, res) => {
      if (req.url === '/.well-known/oauth-protected-resource') {
        res.writeHead(302, { location: '/followed-redirect' }).end();
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    try {
      const run = await runProbe({ CASIMIRBOT_MCP_PUBLIC_BASE_URL: stub.url, ...LOOPBACK_OPT_IN });
      expect(run.code, run.stderr).toBe(1);
      const failed = run.report!.checks.filter((c) => c.status === 'failed').map((c) => c.id);
      expect(failed).toEqual([
        'discovery.protected_resource_metadata',
        'discovery.protected_resource_metadata_mcp',
        'mcp.unauthenticated_challenge',
        'mcp.get_not_allowed',
        'device_check.protected_resource_metadata',
        'device_check.metadata_scopes_only_rooms_read',
        'device_check.unauthenticated_challenge',
      ]);
      expect(run.report!.checks.find((c) => c.id === 'discovery.protected_resource_metadata')?.detail).toContain(
        'redirect refused (HTTP 302)',
      );
      expect(run.report!.summary.failed).toBe(7);
      expect(stub.seen.map((r) => r.url)).not.toContain('/followed-redirect');
    } finally {
      await stub.close();
    }
  });

  it('redacts a bearer the target reflects back, and never puts it in a URL', async () => {
    const stub = await startStub((req, res) => {
      res
        .writeHead(req.method === 'POST' ? 500 : 404, { 'content-type': 'text/plain' })
        .end(`you sent ${req.headers.authorization ?? 'nothing'}`);
    });
    const secret = 'plain-opaque-token-without-a-known-shape-0123456789';
    try {
      const run = await runProbe({
        CASIMIRBOT_MCP_PUBLIC_BASE_URL: stub.url,
        ...LOOPBACK_OPT_IN,
        CASIMIRBOT_MCP_ACCESS_TOKEN: secret,
      });
      expect(run.code).toBe(1);
      expect(run.status('mcp.authenticated_initialize')).toBe('failed');
      expect(run.stdout).toContain(REDACTED);
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
      expect(stub.seen.some((r) => r.method === 'POST' && r.url === '/mcp')).toBe(true);
      expect(stub.seen.every((r) => !r.url.includes(secret))).toBe(true);
    } finally {
      await stub.close();
    }
  });
});

describe('target admission', () => {
  it.each([
    ['https://helix.example.com', false, 'https://helix.example.com'],
    ['https://helix.example.com:8443/', false, 'https://helix.example.com:8443'],
    ['http://127.0.0.1:1522', true, 'http://127.0.0.1:1522'],
    ['http://127.9.8.7:1', true, 'http://127.9.8.7:1'],
    ['http://localhost:1522', true, 'http://localhost:1522'],
    ['http://[::1]:1522', true, 'http://[::1]:1522'],
  ])('admits %s (loopback opt-in %s)', (raw, optIn, origin) => {
    expect(admitTarget(raw, optIn)).toBe(origin);
  });

  it.each<[string | undefined, boolean, ConfigErrorCode]>([
    [undefined, true, 'target_missing'],
    ['helix.example.com', true, 'target_invalid'],
    ['http://127.0.0.1:1522', false, 'loopback_http_not_opted_in'],
    ['http://example.com', true, 'plain_http_not_loopback'],
    ['http://192.0.2.1', true, 'plain_http_not_loopback'],
    ['http://128.0.0.1', true, 'plain_http_not_loopback'],
    ['http://localhost.example.com', true, 'plain_http_not_loopback'],
    ['ftp://helix.example.com', true, 'scheme_not_allowed'],
    ['https://user:secret@helix.example.com', true, 'target_has_userinfo'],
    ['https://helix.example.com/mcp', true, 'target_not_origin'],
    ['https://helix.example.com/?x=1', true, 'target_not_origin'],
  ])('refuses %s (loopback opt-in %s) with %s', (raw, optIn, code) => {
    let thrown: unknown;
    try {
      admitTarget(raw, optIn);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProbeConfigError);
    expect((thrown as ProbeConfigError).code).toBe(code);
    if (raw?.includes('secret') === true) expect((thrown as Error).message).not.toContain('secret');
  });
});

describe('report redaction', () => {
  it('replaces configured credentials in keys and values at any depth, and anything credential-shaped', () => {
    const { redact } = redactor(['opaque-secret-value', 'opaque-secret']);
    const report = {
      detail: 'server said opaque-secret-value twice: opaque-secret-value',
      nested: [{ 'opaque-secret': { deeper: ['x opaque-secret y'] } }],
      shaped: 'key hlx_abcdefghijklmnopqrstuvwxyz was echoed',
      fine: 'helix_run_start lacks scope helix.agent_runs.write',
      count: 3,
    };
    expect(redact(report)).toEqual({
      detail: `server said ${REDACTED} twice: ${REDACTED}`,
      nested: [{ [REDACTED]: { deeper: [`x ${REDACTED} y`] } }],
      shaped: REDACTED,
      fine: 'helix_run_start lacks scope helix.agent_runs.write',
      count: 3,
    });
  });

  it('treats secrets literally and in one pass', () => {
    const { redactString } = redactor(['a.b+c', 'red']);
    expect(redactString('x a.b+c red aXbbc')).toBe(`x ${REDACTED} ${REDACTED} aXbbc`);
  });

  it('fails closed on pathological nesting', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(JSON.stringify(redactor([]).redact(deep))).toContain(REDACTED);
  });
});
