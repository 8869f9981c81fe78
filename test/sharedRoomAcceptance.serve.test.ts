import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_SETTINGS } from '../scripts/sharedRoomAcceptance/config.js';
import type { AcceptanceReport } from '../scripts/sharedRoomAcceptance/report.js';
import { createApiKey } from '../src/auth/apiKeys.js';
import { featuresFrom } from '../src/domain/accountPolicy.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { openStore } from '../src/store/openStore.js';
import { accountDeps } from './support/accounts.js';
import { runReportingScript } from './support/probeProcess.js';
import { startCliServer, type ServerProcess } from './support/processes.js';
import { ceilingFor } from './support/ceilings.js';

const S = HARNESS_SETTINGS;
const CLEAN = Object.fromEntries(Object.values(S).map((name) => [name, '']));
const SCOPES = ['helix.rooms.read', 'helix.rooms.manage', 'helix.agent_runs.read', 'helix.agent_runs.write'];

/**
 * HAR-01..15 against the real facade: `npm run helix:shared-room:live-acceptance` in network and
 * mutation mode, against `helix serve` started as a child process on 127.0.0.1 with a fresh SQLite
 * file, an account holding the `shared_live_room` feature and a key made for the purpose.
 */
describe('live acceptance harness against a real `helix serve` (issue 14)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-room-acceptance-'));
  const database = join(dir, 'helix.db');
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    const store = await openStore(database);
    try {
      const deps = await accountDeps(store);
      const { accountId } = await createAccount(deps, { displayName: 'room acceptance' });
      const defaults = { features: featuresFrom([]), defaultCapability: 'admit' as const, capabilities: {} };
      await changeAccountPolicy(deps, defaults, accountId, { features: { shared_live_room: true } });
      token = (await createApiKey(store, { tenantId: 'acceptance', accountId, scopes: SCOPES }, Date.now())).key;
    } finally {
      await store.close();
    }
    server = await startCliServer(database, { HELIX_LOG_LEVEL: 'warn' });
  }, ceilingFor(1));
  afterAll(async () => {
    await server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  const harness = () =>
    runReportingScript(
      'scripts/sharedRoomAcceptance.ts',
      {
        ...CLEAN,
        [S.baseUrl]: server.url,
        [S.network]: '1',
        [S.allowLoopbackHttp]: '1',
        [S.allowMutation]: '1',
        [S.requireComplete]: '1',
        [S.accessToken]: token,
      },
      (report: AcceptanceReport) => report.steps,
    );

  it('HAR-04, HAR-07, HAR-10: every automated step passes, cleanup completes, the report is complete (exit 0)', async () => {
    const run = await harness();
    const failed = run.report?.steps.filter((s) => s.status !== 'passed' && s.status !== 'warning');
    expect(failed, run.stderr).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.report).toMatchObject({ mode: 'network', complete: true, cleanup: { status: 'completed' } });
    expect(run.report?.retained_room_id).toMatch(/^room_[0-9a-f]{24}$/);
    expect(run.status('room.command_disabled')).toBe('passed');
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  it('HAR-11: a second invocation replays the retained room instead of creating another', async () => {
    const first = await harness();
    const second = await harness();
    expect(second.code, second.stderr).toBe(0);
    expect(second.report?.retained_room_id).toBe(first.report?.retained_room_id);
    expect(second.detail('room.create')).toContain('replayed');
  });
});
