import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { LOOPBACK_OPT_IN, runProbeScript, type ProbeRun } from './support/probeProcess.js';
import { storedRuns, type StoredRun } from './support/storedRuns.js';
import { storeFlavours } from './support/stores.js';

const SMOKE = 'scripts/productionSmoke.ts';
const LIFECYCLE = ['run.start', 'run.inspect', 'run.cancel', 'run.cancel_replay'];

/**
 * A reverse proxy in front of Helix that forwards everything but drops one response header, the
 * way a proxy with a response-header allowlist does.
 */
const startHeaderStrippingProxy = async (upstream: string, dropped: string) => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'connection'),
      ) as Record<string, string>;
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      const answer = await fetch(`${upstream}${req.url}`, {
        headers,
        ...(req.method === undefined ? {} : { method: req.method }),
        ...(body === undefined ? {} : { body }),
      });
      const kept = [...answer.headers].filter(
        ([name]) =>
          name !== dropped && name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding',
      );
      res.writeHead(answer.status, Object.fromEntries(kept)).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

describe('npm run smoke:production against a real Helix', () => {
  let h: TestHelix;
  let token: string;

  beforeAll(async () => {
    h = await startTestHelix(storeFlavours().find((f) => f.name === 'sqlite')!);
    token = await h.key();
  });
  afterAll(async () => {
    await h.close();
  });

  const smoke = async (env: Record<string, string>): Promise<{ run: ProbeRun; created: StoredRun[] }> => {
    const before = new Set((await storedRuns(h)).map((r) => r.runId));
    const run = await runProbeScript(SMOKE, env);
    return { run, created: (await storedRuns(h)).filter((r) => !before.has(r.runId)) };
  };

  it('passes: health, metadata, challenge, then one 60 s one-step run started, inspected, cancelled and the cancel replayed', async () => {
    const { run, created } = await smoke({
      HELIX_MCP_PUBLIC_BASE_URL: h.url,
      HELIX_MCP_CONFORMANCE_ALLOW_LOOPBACK_HTTP: '1',
      HELIX_MCP_ACCESS_TOKEN: token,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.report).toMatchObject({ schema: 'helix.production_smoke.v1', target: h.url });
    for (const id of [
      'health.healthz',
      'discovery.protected_resource_metadata',
      'discovery.protected_resource_metadata_mcp',
      'mcp.unauthenticated_challenge',
      ...LIFECYCLE,
    ]) {
      expect(run.status(id), `${id}: ${run.detail(id)}`).toBe('passed');
    }
    // No OAuth issuer on this Helix: legal, a warning.
    expect(run.status('discovery.protected_resource_metadata.authorization_servers')).toBe('warning');
    expect(run.report!.summary).toMatchObject({ failed: 0, passed: 8, warning: 2 });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      maxSteps: 1,
      expiresInSeconds: 60,
      lifetimeMs: 60_000,
      stepsUsed: 0,
      lifecycle: 'cancelled',
    });
    expect(created[0]!.eventKinds).toEqual(['run.started', 'run.cancelled']);
    expect(run.detail('run.inspect')).toBe(`run ${created[0]!.runId} inspected: version 1, waiting`);
    expect(run.stderr).toMatch(/^production smoke for http:\/\/127\.0\.0\.1:\d+: 8 passed, 2 warning/);
    expect(run.stdout).not.toContain(token);
    expect(run.stderr).not.toContain(token);
  });

  it('fails when the token cannot start a run: the start is reported with its error code and the rest is skipped', async () => {
    const readOnly = await h.key('helix.agent_runs.read');
    const { run, created } = await smoke({
      CASIMIRBOT_MCP_PUBLIC_BASE_URL: h.url,
      ...LOOPBACK_OPT_IN,
      CASIMIRBOT_MCP_ACCESS_TOKEN: readOnly,
    });
    expect(run.code).toBe(1);
    expect(run.status('health.healthz')).toBe('passed');
    expect(run.status('run.start')).toBe('failed');
    expect(run.detail('run.start')).toContain('HTTP 403 insufficient_scope');
    for (const id of LIFECYCLE.slice(1)) expect(run.status(id)).toBe('skipped');
    expect(created).toEqual([]);
    expect(run.stdout).not.toContain(readOnly);
  });

  it('fails behind a proxy that drops Idempotency-Replayed, and still cancels the run it started', async () => {
    const proxy = await startHeaderStrippingProxy(h.url, 'idempotency-replayed');
    try {
      const { run, created } = await smoke({
        CASIMIRBOT_MCP_PUBLIC_BASE_URL: proxy.url,
        ...LOOPBACK_OPT_IN,
        CASIMIRBOT_MCP_ACCESS_TOKEN: token,
      });
      expect(run.code).toBe(1);
      expect(run.status('run.start')).toBe('failed');
      expect(run.detail('run.start')).toBe('Idempotency-Replayed is null, expected false');
      expect(run.status('run.inspect')).toBe('passed');
      expect(run.status('run.cancel')).toBe('failed');
      expect(run.detail('run.cancel_replay')).toBe('Idempotency-Replayed is null, expected true');
      expect(created).toHaveLength(1);
      expect(created[0]!.lifecycle).toBe('cancelled');
    } finally {
      await proxy.close();
    }
  });

  it('needs the access token (exit 2, nothing requested)', async () => {
    const run = await runProbeScript(SMOKE, { CASIMIRBOT_MCP_PUBLIC_BASE_URL: h.url, ...LOOPBACK_OPT_IN });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('[access_token_missing]');
  });

  it('applies the probe loopback rule: plain http needs the opt-in, and never reaches a non-loopback host', async () => {
    const withoutOptIn = await runProbeScript(SMOKE, {
      CASIMIRBOT_MCP_PUBLIC_BASE_URL: h.url,
      CASIMIRBOT_MCP_ACCESS_TOKEN: token,
    });
    expect(withoutOptIn.code).toBe(2);
    expect(withoutOptIn.stderr).toContain('[loopback_http_not_opted_in]');
    const remote = await runProbeScript(SMOKE, {
      CASIMIRBOT_MCP_PUBLIC_BASE_URL: 'http://192.0.2.1',
      ...LOOPBACK_OPT_IN,
      CASIMIRBOT_MCP_ACCESS_TOKEN: token,
    });
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('[plain_http_not_loopback]');
    for (const run of [withoutOptIn, remote]) {
      expect(run.stdout).toBe('');
      expect(run.stderr).not.toContain(token);
    }
  });
});
