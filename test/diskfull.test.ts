import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startHelix, type RunningHelix } from '../src/server.js';
import { api, idemKey } from './support/harness.js';

/** A tiny tmpfs needs root and mount(8); .ci/run has both, a developer's sandbox may not. */
const canMount = (): boolean => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'helix-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
};

describe.skipIf(!canMount())('disk full under the SQLite store', () => {
  const mountpoint = mkdtempSync(join(tmpdir(), 'helix-tmpfs-'));
  let helix: RunningHelix;
  let token: string;
  beforeAll(async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountpoint]);
    const config = loadConfig(
      { HELIX_LOG_LEVEL: 'silent', HELIX_AGENT_IP_RATE_LIMIT: '0', HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0' },
      { host: '127.0.0.1', port: 0, database: join(mountpoint, 'helix.db') },
    );
    helix = await startHelix(config, { logger: createLogger('silent') });
    token = (
      await createApiKey(
        helix.store,
        { tenantId: 't', accountId: 'a', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
        Date.now(),
      )
    ).key;
    // Leave about 96 KiB free: a few runs fit, then the file system is full.
    const { bavail, bsize } = statfsSync(mountpoint);
    writeFileSync(join(mountpoint, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 96 * 1024)));
  });
  afterAll(async () => {
    await helix?.close();
    try {
      execFileSync('umount', [mountpoint]);
    } finally {
      rmSync(mountpoint, { recursive: true, force: true });
    }
  });

  it('answers 503 with Retry-After when the disk is full, loses no acknowledged run, and recovers when space returns', async () => {
    const acknowledged: string[] = [];
    let full: { status: number; body: any; headers: Headers } | undefined;
    for (let i = 0; i < 500 && full === undefined; i++) {
      const res = await api(helix.url, 'POST', '/api/v1/agent-runs', {
        token,
        idempotencyKey: idemKey('full'),
        body: { objective: `fill ${i} ${'x'.repeat(2000)}` },
      });
      if (res.status === 201) acknowledged.push(res.body.run_id);
      else full = res;
    }
    expect(full, 'the file system never filled up').toBeDefined();
    expect(full!.status).toBe(503);
    expect(full!.body.code).toBe('store_unavailable');
    expect(full!.headers.get('retry-after')).toBe('1');
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const runId of acknowledged) {
      const inspected = await api(helix.url, 'GET', `/api/v1/agent-runs/${runId}`, { token });
      expect(inspected.status, runId).toBe(200);
    }

    rmSync(join(mountpoint, 'filler'));
    const after = await api(helix.url, 'POST', '/api/v1/agent-runs', {
      token,
      idempotencyKey: idemKey('space'),
      body: { objective: 'space is back' },
    });
    expect(after.status).toBe(201);
    for (const runId of acknowledged)
      expect((await api(helix.url, 'GET', `/api/v1/agent-runs/${runId}`, { token })).status).toBe(200);
  });
});
