// Issue 15 "done when": a real flying-squid server, the real reference connector and a real
// `helix serve` (child processes, loopback only), on SQLite and on PostgreSQL. A run with the
// `bound_room_evidence` scope, bound to the room, is answered from a fresh world observation, and
// its evidence bundle shows the observation's provenance (ING-06, BRE-01..08, D-10, HAR-14).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { revokeSource } from '../src/service/roomSources/revokeSource.js';
import { accountDeps } from './support/accounts.js';
import { ADMIT_ALL } from './support/boundRoom.js';
import { api, idemKey } from './support/harness.js';
import {
  announceMinecraftSkip,
  type ChildHandle,
  type FlatWorldServer,
  startConnector,
  startFlatWorldServer,
} from './support/minecraft.js';
import { startCliServer, type ServerProcess } from './support/processes.js';
import { serverRoomDeps } from './support/roomDeps.js';
import { serverStoreFlavours, type TestStore } from './support/stores.js';

const SCOPES = [
  'helix.agent_runs.read',
  'helix.agent_runs.write',
  'helix.rooms.read',
  'helix.rooms.manage',
  'helix.room_sources.manage',
];
const WORLD = 'minecraft:helix-e2e';
const QUESTION = 'How many diamond are in the inventory of the player?';

const skip = announceMinecraftSkip();

describe.skipIf(skip).each(serverStoreFlavours())(
  'a Minecraft world as room evidence, end to end on $name',
  (flavour) => {
    let t: TestStore;
    let helix: ServerProcess;
    let game: FlatWorldServer;
    let connector: ChildHandle | undefined;
    let token = '';
    let accountId = '';

    const call = (method: string, path: string, options: Parameters<typeof api>[3] = {}) =>
      api(helix.url, method, path, { token, ...options });

    beforeAll(async () => {
      t = await flavour.create();
      const accounts = await accountDeps(t.store);
      accountId = (await createAccount(accounts, { displayName: 'minecraft e2e' })).accountId;
      await changeAccountPolicy(accounts, ADMIT_ALL, accountId, {
        features: { shared_live_room: true, developer: true },
      });
      token = (await createApiKey(t.store, { tenantId: 'e2e', accountId, scopes: SCOPES }, Date.now())).key;
      [helix, game] = await Promise.all([
        startCliServer(t.location ?? '', {
          HELIX_AGENT_DATABASE_SCOPES: 'bound_room_evidence,bound_room_environment_probe',
          HELIX_AGENT_IP_RATE_LIMIT: '0',
          HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
          HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
          HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
        }),
        startFlatWorldServer({ give: 'diamond 3' }),
      ]);
    }, 60_000);
    afterAll(async () => {
      await connector?.stop('SIGKILL');
      await game?.stop('SIGKILL');
      await helix?.kill('SIGTERM');
      await t?.dispose();
    });

    let roomId = '';
    let sourceId = '';
    let bearer = '';

    /** Starts a run with the data scope, binds it to the room and continues it once. */
    const askTheRoom = async (objective: string, scope: string) => {
      const started = await call('POST', '/api/v1/agent-runs', {
        idempotencyKey: idemKey('run'),
        body: { objective, database_scope: [scope] },
      });
      expect(started.status, started.text).toBe(201);
      const runId = started.body.run_id as string;
      const bound = await call('POST', '/api/v1/rooms/run-bindings', { body: { room_id: roomId, run_id: runId } });
      expect(bound.status, bound.text).toBeLessThan(300);
      const continued = await call('POST', `/api/v1/agent-runs/${runId}/continue`, {
        idempotencyKey: idemKey('continue'),
        body: { expected_version: started.body.version, instruction: 'Answer from the world.' },
      });
      return { runId, continued };
    };
    /** The run's artifacts of one evidence family; the source bearer is nowhere in the bundle (SRC-03). */
    const evidenceOf = async (runId: string, family: string) => {
      const evidence = await call('GET', `/api/v1/agent-runs/${runId}/evidence`);
      expect(evidence.status).toBe(200);
      expect(JSON.stringify(evidence.body)).not.toContain(bearer);
      return (evidence.body.artifacts as any[]).filter((a) => a.evidence_family === family);
    };

    it('ING-06, SRC-04, DC-02: the owner creates a source, claims its bearer, and the real connector turns the Device Check ready', async () => {
      roomId = (await call('POST', '/api/v1/rooms', { idempotencyKey: idemKey('room'), body: { title: 'Flat world' } }))
        .body.room.room_id as string;
      const created = await call('POST', `/api/v1/rooms/${roomId}/sources`, {
        idempotencyKey: idemKey('source'),
        body: {
          domain_adapter: 'game.minecraft.readonly.v1',
          world_id: WORLD,
          source_label: 'Flat world',
          ttl_ms: 3_600_000,
        },
      });
      expect(created.status, created.text).toBe(201);
      sourceId = created.body.source.source_id as string;
      // The signed-in owner claims the delivery (the console's use case).
      const deps = await serverRoomDeps(t.store, ADMIT_ALL);
      bearer = (await claimDelivery(deps, accountId, created.body.credential_delivery.claim_handle)).token_value;
      connector = startConnector({
        baseUrl: helix.url,
        bindingId: sourceId,
        worldId: WORLD,
        bearer,
        minecraftPort: game.port,
        env: {
          HELIX_CONNECTOR_SNAPSHOT_INTERVAL_MS: '500',
          HELIX_CONNECTOR_HEARTBEAT_INTERVAL_MS: '500',
          HELIX_CONNECTOR_PROBE_POLL_INTERVAL_MS: '300',
        },
      });
      await expect
        .poll(async () => (await call('GET', `/api/v1/rooms/${roomId}/device-check`)).body.ready, {
          timeout: 30_000,
          interval: 250,
        })
        .toBe(true);
    }, 60_000);

    it('ING-06, BRE-01..BRE-08: a bound run answers from a fresh observation of the real world and cites its provenance', async () => {
      const { runId, continued } = await askTheRoom(QUESTION, 'bound_room_evidence');
      expect(continued.status, continued.text).toBe(200);
      // BRE-07: the observation re-entered the ordinary solver path and grounds the authorized answer.
      expect(continued.body, continued.text).toMatchObject({
        completion_status: 'completed',
        terminal_authority_status: 'authorized',
        latest_result: { outcome: 'succeeded' },
      });
      expect(continued.body.latest_result.text).toMatch(/diamond[^.]*3|3[^.]*diamond/i);
      const observations = await evidenceOf(runId, 'shared_live_room_evidence');
      expect(observations.length).toBeGreaterThan(0);
      const provenance = JSON.stringify(observations.map((a) => a.provenance));
      for (const expected of [roomId, sourceId, WORLD, 'game.minecraft.readonly.v1'])
        expect(provenance).toContain(expected);
    }, 60_000);

    it('PRB-01, PRB-02: the inventory probe is asked of the real connector, which answers it from the game', async () => {
      const { runId, continued } = await askTheRoom(
        'How many diamond does the inventory check find?',
        'bound_room_environment_probe',
      );
      expect(continued.status, continued.text).toBe(200);
      expect(continued.body, continued.text).toMatchObject({ terminal_authority_status: 'authorized' });
      expect(continued.body.latest_result.text).toMatch(/diamond[^.]*3|3[^.]*diamond/i);
      const probed = await evidenceOf(runId, 'shared_live_room_environment_probe');
      expect(probed.length).toBeGreaterThan(0);
      expect(JSON.stringify(probed.map((a) => a.provenance))).toContain(sourceId);
    }, 60_000);

    it('SRC-06, BRE-06: revoking the source stops the connector at its next call, and the next bound turn fails typed', async () => {
      await revokeSource(await serverRoomDeps(t.store, ADMIT_ALL), accountId, sourceId);
      expect(await connector?.exited()).toBe(2);
      const { continued } = await askTheRoom(QUESTION, 'bound_room_evidence');
      expect([continued.status, continued.body.code]).toEqual([409, 'room_evidence_source_unavailable']);
      expect((await call('GET', `/api/v1/rooms/${roomId}/device-check`)).body.ready).toBe(false);
    }, 60_000);
  },
);
