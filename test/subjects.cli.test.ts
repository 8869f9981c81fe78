import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSubjectKey } from '../src/domain/identityHashes.js';
import { hashApiKey } from '../src/auth/apiKeys.js';
import { loadInstanceSecret } from '../src/auth/instanceSecret.js';
import { api, idemKey } from './support/harness.js';
import { runCli, startServerProcess, type ServerProcess } from './support/processes.js';
import { serverStoreFlavours, type TestStore } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const RUN_SCOPES = 'helix.agent_runs.read helix.agent_runs.write';

describe.each(serverStoreFlavours())('helix subjects on $name', (flavour) => {
  let testStore: TestStore;
  let server: ServerProcess;
  let database: string;
  const dir = mkdtempSync(join(tmpdir(), 'helix-subjects-'));
  beforeAll(async () => {
    testStore = await flavour.create();
    database = testStore.location!;
    server = await startServerProcess(database);
  }, ceilingFor(1));
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await testStore?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const createKey = async (account: string) => {
    const created = await runCli([
      'keys',
      'create',
      '--tenant',
      'acme',
      '--account',
      account,
      '--scopes',
      RUN_SCOPES,
      '--database',
      database,
    ]);
    expect(created.code, created.stderr).toBe(0);
    return {
      key: created.stdout.trimEnd().split('\n').at(-1)!,
      keyId: /created (key_[0-9a-f]+)/.exec(created.stdout)![1]!,
    };
  };

  it('shows, exports and erases an account, against a running server, sharing the REST use cases', {
    timeout: ceilingFor(10),
  }, async () => {
    const carol = await createKey('carol');
    const dave = await createKey('dave');
    const run = await api(server.url, 'POST', '/api/v1/agent-runs', {
      token: carol.key,
      idempotencyKey: idemKey(),
      body: { objective: 'carol objective' },
    });
    expect(run.status).toBe(201);

    const shown = await runCli(['subjects', 'show', 'carol', '--database', database]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('subject carol: 5 record(s)');
    expect(shown.stdout).toMatch(/^runs\t1$/m);
    expect(shown.stdout).toMatch(/^api_keys\t1$/m);

    const out = join(dir, `carol-${flavour.name}.json`);
    const exported = await runCli(['subjects', 'export', 'carol', '--out', out, '--database', database]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe('');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const text = readFileSync(out, 'utf8');
    const document = JSON.parse(text);
    expect(document).toMatchObject({ schema: 'helix.subject_export.v1', account_id: 'carol' });
    expect(document.records.runs).toEqual([
      expect.objectContaining({ run_id: run.body.run_id, objective: 'carol objective' }),
    ]);
    expect(document.records.api_keys).toEqual([expect.objectContaining({ key_id: carol.keyId, tenant_id: 'acme' })]);
    expect(text).not.toContain(carol.key);
    expect(text).not.toContain(hashApiKey(carol.key));

    const unconfirmed = await runCli(['subjects', 'erase', 'carol', '--database', database]);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toContain('not confirmed; nothing was erased');
    expect((await api(server.url, 'GET', `/api/v1/agent-runs/${run.body.run_id}`, { token: carol.key })).status).toBe(
      200,
    );

    const erased = await runCli(['subjects', 'erase', 'carol', '--yes', '--database', database]);
    expect(erased.code, erased.stderr).toBe(0);
    const erasureId = /^erased carol: erasure (era_[A-Za-z0-9_-]{22}) at /m.exec(erased.stdout)?.[1];
    expect(erasureId).toBeDefined();
    expect(erased.stdout).toMatch(/^runs\t1$/m);
    expect((await api(server.url, 'GET', `/api/v1/agent-runs/${run.body.run_id}`, { token: carol.key })).status).toBe(
      401,
    );
    const audit = await testStore.store.read.subjects.latestErasure(
      dataSubjectKey(await loadInstanceSecret(testStore.store), 'carol'),
    );
    expect(audit).toMatchObject({
      erasureId,
      requestedBy: 'cli',
      records: expect.objectContaining({ runs: 1, api_keys: 1 }),
    });

    const gone = await runCli(['subjects', 'show', 'carol', '--database', database]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('subject_not_found');
    const again = await runCli(['subjects', 'erase', 'carol', '--yes', '--database', database]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`already erased carol: erasure ${erasureId} at `);

    expect((await runCli(['subjects', 'show', 'dave', '--database', database])).stdout).toMatch(/^api_keys\t1$/m);
    expect((await api(server.url, 'GET', `/api/v1/agent-runs/${run.body.run_id}`, { token: dave.key })).status).toBe(
      404,
    );
    expect((await runCli(['subjects', 'export', 'not an id', '--database', database])).code).toBe(2);
  }); // a dozen CLI processes
});
