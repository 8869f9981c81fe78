import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_BODY_LIMIT, loadConfig } from '../src/config.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { accountDeps } from './support/accounts.js';
import { api, startTestHelix, type TestHelix } from './support/harness.js';
import { runCli } from './support/processes.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

// The limits sit in front of the store, so one dialect is enough here.
const sqlite = storeFlavours().find((f) => f.name === 'sqlite')!;
const ROOMS = '/api/v1/rooms';
const BAD_KEY = `hlx_${'A'.repeat(43)}`;
const OFF = {
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
};

const running: TestHelix[] = [];
const start = async (env: Record<string, string>): Promise<TestHelix> => {
  const h = await startTestHelix(sqlite, { env: { ...OFF, ...env } });
  running.push(h);
  return h;
};
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.close()));
});

const statuses = async (n: number, send: () => Promise<{ status: number }>): Promise<number[]> => {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) out.push((await send()).status);
  return out;
};

describe('room facade limits (SLR-16, ENV-02..04)', () => {
  it('HELIX_ROOM_AGENT_IP_RATE_LIMIT is a pre-auth bucket of its own, separate from the run REST one', async () => {
    const h = await start({ HELIX_ROOM_AGENT_IP_RATE_LIMIT: '3', HELIX_AGENT_IP_RATE_LIMIT: '4' });
    const rooms = () => api(h.url, 'GET', ROOMS, { token: BAD_KEY });
    expect(await statuses(3, rooms)).toEqual([401, 401, 401]);
    const refused = await rooms();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ schema: 'helix.shared_live_room.error.v1', code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The run surface still has its whole budget, and exhausting it leaves the rooms' untouched.
    const runs = () => api(h.url, 'GET', '/api/v1/agent-runs/run_doesnotexist', { token: BAD_KEY });
    expect(await statuses(5, runs)).toEqual([401, 401, 401, 401, 429]);
  });

  it('HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT counts each verified principal after authentication', async () => {
    const h = await start({
      HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '2',
      HELIX_ACCOUNT_DEFAULT_FEATURES: 'shared_live_room',
    });
    const deps = await accountDeps(h.testStore.store);
    const [a, b] = [
      (await createAccount(deps, { displayName: 'a' })).accountId,
      (await createAccount(deps, { displayName: 'b' })).accountId,
    ];
    const [keyA, keyB] = [await h.key('helix.rooms.read', 't', a), await h.key('helix.rooms.read', 't', b)];
    expect(await statuses(3, () => api(h.url, 'GET', ROOMS, { token: keyA }))).toEqual([200, 200, 429]);
    expect((await api(h.url, 'GET', ROOMS, { token: keyB })).status).toBe(200);
    // The run REST per-principal budget is another bucket.
    expect((await api(h.url, 'GET', '/api/v1/agent-runs/run_doesnotexist', { token: keyA })).status).not.toBe(429);
  });

  it('a limit of 0 turns the room buckets off', async () => {
    const h = await start({});
    expect(new Set(await statuses(40, () => api(h.url, 'GET', ROOMS, { token: BAD_KEY })))).toEqual(new Set([401]));
  });

  it('reads the three variables once, with the defaults of the run surface', () => {
    const defaults = loadConfig({});
    expect(defaults.roomBodyLimitBytes).toBe(DEFAULT_BODY_LIMIT);
    expect(defaults.rateLimits).toMatchObject({ roomsPerIp: 600, roomsPerPrincipal: 300 });
    const set = loadConfig({
      HELIX_ROOM_AGENT_BODY_LIMIT: '4096',
      HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
      HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '7',
    });
    expect([set.roomBodyLimitBytes, set.rateLimits.roomsPerIp, set.rateLimits.roomsPerPrincipal]).toEqual([4096, 0, 7]);
    for (const [name, bad] of [
      ['HELIX_ROOM_AGENT_BODY_LIMIT', '100'],
      ['HELIX_ROOM_AGENT_BODY_LIMIT', 'lots'],
      ['HELIX_ROOM_AGENT_IP_RATE_LIMIT', '-1'],
      ['HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT', '1e3'],
    ] as const) {
      expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: bad })).toThrow(name);
    }
  });

  describe('start-up', () => {
    const dir = mkdtempSync(join(tmpdir(), 'helix-room-limits-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('`helix serve` stops with exit 2 naming a bad room limit', { timeout: ceilingFor(1) }, async () => {
      const res = await runCli(['serve', '--port', '0', '--database', join(dir, 'r.db')], {
        HELIX_ROOM_AGENT_IP_RATE_LIMIT: 'many',
      });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('HELIX_ROOM_AGENT_IP_RATE_LIMIT');
    });
  });
});
