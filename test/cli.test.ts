import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../src/store/migrations/index.js';
import { api, idemKey } from './support/harness.js';
import { runCli, spawnTs, startServerProcess, type ServerProcess } from './support/processes.js';
import { serverStoreFlavours, type TestStore } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

describe.each(serverStoreFlavours())('helix CLI on $name', (flavour) => {
  let testStore: TestStore;
  let server: ServerProcess;
  let database: string;
  beforeAll(async () => {
    testStore = await flavour.create();
    database = testStore.location!;
    server = await startServerProcess(database);
  }, ceilingFor(1));
  afterAll(async () => {
    await server.kill('SIGTERM');
    await testStore.dispose();
  });

  it('keys create prints the key alone on the last line; it works against a running server; list never shows it; revoke bites', {
    timeout: ceilingFor(4),
  }, async () => {
    const created = await runCli([
      'keys',
      'create',
      '--tenant',
      'acme',
      '--account',
      'alice',
      '--scopes',
      'helix.agent_runs.read helix.agent_runs.write',
      '--label',
      'ci',
      '--database',
      database,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(/^hlx_[A-Za-z0-9_-]{43}$/);
    const keyId = /created (key_[0-9a-f]+)/.exec(created.stdout)![1]!;

    const start = await api(server.url, 'POST', '/api/v1/agent-runs', {
      token: key,
      idempotencyKey: idemKey(),
      body: { objective: 'CLI key' },
    });
    expect(start.status).toBe(201);

    const listed = await runCli(['keys', 'list'], { HELIX_DATABASE_URL: database });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(keyId);
    expect(listed.stdout).toContain('acme');
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(key.slice(8));

    const revoked = await runCli(['keys', 'revoke', keyId, '--database', database]);
    expect(revoked.code).toBe(0);
    const refused = await api(server.url, 'GET', `/api/v1/agent-runs/${start.body.run_id}`, { token: key });
    expect(refused.status).toBe(401);
    expect((await runCli(['keys', 'list', '--database', database])).stdout).toMatch(new RegExp(`${keyId}.*revoked`));
  });

  it('stores only the hash of a key', { timeout: ceilingFor(1) }, async () => {
    const created = await runCli([
      'keys',
      'create',
      '--tenant',
      't',
      '--account',
      'a',
      '--scopes',
      'run.read',
      '--database',
      database,
    ]);
    const key = created.stdout.trimEnd().split('\n').at(-1)!;
    const rows = await testStore.store.read.apiKeys.list();
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('refuses bad input with a clear message and a nonzero exit', { timeout: ceilingFor(3) }, async () => {
    const badScope = await runCli([
      'keys',
      'create',
      '--tenant',
      't',
      '--account',
      'a',
      '--scopes',
      'root',
      '--database',
      database,
    ]);
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toContain('unknown scope(s): root');
    const badTenant = await runCli([
      'keys',
      'create',
      '--tenant',
      'bad tenant',
      '--account',
      'a',
      '--scopes',
      'run.read',
      '--database',
      database,
    ]);
    expect(badTenant.code).toBe(2);
    const missing = await runCli(['keys', 'revoke', 'key_doesnotexist', '--database', database]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no key with id key_doesnotexist');
  });

  it('migrate reports the schema version and is idempotent', { timeout: ceilingFor(2) }, async () => {
    for (let i = 0; i < 2; i++) {
      const res = await runCli(['migrate', '--database', database]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain(MIGRATION_NAMES.at(-1));
      const password = database.startsWith('postgres') ? new URL(database).password : '';
      if (password !== '') expect(res.stdout).not.toContain(`:${password}@`); // the URL's password is masked
    }
  });
});

describe('helix serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-serve-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates and migrates a fresh database, answers /healthz once ready, and stops on SIGTERM', {
    timeout: ceilingFor(1),
  }, async () => {
    const child = spawnTs(
      'src/cli/main.ts',
      ['serve', '--port', '0', '--database', join(dir, 'fresh', 'helix.db')],
      {},
    );
    const lines = createInterface({ input: child.stdout! });
    let url = '';
    for await (const line of lines) {
      const match = /helix listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1] !== undefined) {
        url = match[1];
        break;
      }
    }
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  });

  it('refuses plain HTTP on a non-loopback interface outside production', { timeout: ceilingFor(1) }, async () => {
    const res = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--database', join(dir, 'x.db')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('refusing to serve plain HTTP');
  });

  it('in production, a half-configured OAuth section stops start-up naming what is missing', {
    timeout: ceilingFor(1),
  }, async () => {
    const res = await runCli(['serve', '--port', '0', '--database', join(dir, 'p.db')], {
      NODE_ENV: 'production',
      HELIX_AGENT_OAUTH_ISSUER: 'https://issuer.example',
      HELIX_AGENT_OAUTH_AUDIENCE: 'https://helix.example/mcp',
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'the OAuth configuration is incomplete: set HELIX_AGENT_OAUTH_JWKS_URL, HELIX_AGENT_OAUTH_PROVIDER, HELIX_AGENT_OAUTH_ALGORITHMS',
    );
  });

  it('stops with a clear message on bad configuration', { timeout: ceilingFor(1) }, async () => {
    const res = await runCli(['serve', '--port', '0', '--database', join(dir, 'y.db')], {
      HELIX_AGENT_TURN_TIMEOUT_MS: 'soon',
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('HELIX_AGENT_TURN_TIMEOUT_MS');
  });
});
