// The reference Minecraft connector's action lane (connectors/minecraft/src/actions/, docs/connectors.md)
// against a real flying-squid server and a stand-in for Helix: a loopback HTTP server that serves the
// ingress routes (accepting everything) and the action routes of actionWire.ts, handing out the
// actions and controls a test queues and recording every request. Outcomes are checked against the
// SERVER's own view (position and blocks, asked on the flat-world server's stdin), not the connector's.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTION_PREFIX,
  ACTION_REQUEST_SCHEMAS,
  type Action,
  type ActionRoute,
  type PendingAction,
  type PendingControl,
} from '../connectors/minecraft/src/actionWire.js';
import { INGRESS_PREFIX } from '../connectors/minecraft/src/wire.js';
import {
  announceMinecraftSkip,
  type ChildHandle,
  type FlatWorldServer,
  startConnector,
  startFlatWorldServer,
} from './support/minecraft.js';

const SOURCE_BEARER = 'hlxsrc_test_0123456789abcdefghijklmnopqrstuv';
const ACTION_BEARER = 'hlxact_test_zyxwvutsrqponmlkjihgfedcba9876';
const BINDING = 'binding_0123456789abcdef';
const WORKFLOW = 'workflow_0123456789abcdef';
const PLAYER = 'helix_actor';

interface Recorded {
  readonly lane: 'ingress' | 'action' | 'other';
  readonly route: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown>;
}

type Point = { x: number; y: number; z: number };

const laneOf = (url: string): Pick<Recorded, 'lane' | 'route'> => {
  for (const [lane, prefix] of [
    ['ingress', `${INGRESS_PREFIX}/${BINDING}/`],
    ['action', `${ACTION_PREFIX}/${BINDING}/`],
  ] as const) {
    if (url.startsWith(prefix)) return { lane, route: url.slice(prefix.length) };
  }
  return { lane: 'other', route: url };
};

/**
 * The stand-in Helix: hands out each queued action and control once, on the next poll. With
 * `actionsRevoked`, every action route answers 401 as Helix does for a revoked action credential.
 */
const startStandInHelix = async (options: { actionsRevoked?: boolean } = {}) => {
  const requests: Recorded[] = [];
  const actions: PendingAction[] = [];
  const controls: PendingControl[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = req.url ?? '';
      const { lane, route } = laneOf(url);
      requests.push({ lane, route, url, authorization: req.headers.authorization, body: JSON.parse(raw || '{}') });
      if (lane === 'action' && options.actionsRevoked) {
        const error = { schema: 'helix.shared_live_room.error.v1', code: 'action_credential_revoked', status: 401 };
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      const reply =
        route === 'actions/pending'
          ? { controls: controls.splice(0), actions: actions.splice(0) }
          : route === 'probes/pending'
            ? { probes: [] }
            : { accepted: true };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, actions, controls };
};
type StandIn = Awaited<ReturnType<typeof startStandInHelix>>;

/** expect.poll for hooks (it works only inside a test). */
const until = async (predicate: () => boolean, timeoutMs: number): Promise<void> => {
  for (const started = Date.now(); !predicate(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() - started > timeoutMs) throw new Error('the connector did not become ready in time');
  }
};

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_${String(++sequence).padStart(16, '0')}`;

const connectorEnv = {
  HELIX_CONNECTOR_SNAPSHOT_INTERVAL_MS: '2000',
  HELIX_CONNECTOR_HEARTBEAT_INTERVAL_MS: '2000',
  HELIX_CONNECTOR_PROBE_POLL_INTERVAL_MS: '2000',
  HELIX_CONNECTOR_ACTION_POLL_INTERVAL_MS: '200',
};

const skip = announceMinecraftSkip();

describe.skipIf(skip)(
  'MC-06, MC-07, MC-12, MC-15, D-10: the connector executes typed player actions on flying-squid',
  () => {
    let game: FlatWorldServer;
    let helix: StandIn;
    let connector: ChildHandle;
    let spawn: Point;

    /** Queues `action` for the next poll; returns its action id. */
    const queue = (action: Action, deadlineMs: number): string => {
      const actionId = nextId('action');
      const now = Date.now();
      helix.actions.push({
        action_id: actionId,
        workflow_ref: WORKFLOW,
        subject_ref: 'subject_0123456789abcdef',
        action,
        issued_at: new Date(now).toISOString(),
        deadline_at: new Date(now + deadlineMs).toISOString(),
      });
      return actionId;
    };
    /** Queues `action`, waits for its result and returns the result's body. */
    const act = async (action: Action, deadlineMs = 20_000) => {
      const actionId = queue(action, deadlineMs);
      await expect
        .poll(() => helix.requests.some((r) => r.route === 'actions/result' && r.body.action_id === actionId), {
          timeout: deadlineMs + 5_000,
          interval: 100,
        })
        .toBe(true);
      return helix.requests.find((r) => r.route === 'actions/result' && r.body.action_id === actionId)!.body;
    };
    const serverPosition = async () => (await game.positionOf(PLAYER))!;
    const flatDistance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.z - b.z);

    beforeAll(async () => {
      [game, helix] = await Promise.all([
        startFlatWorldServer({ give: 'dirt 4,diamond_pickaxe 1' }),
        startStandInHelix(),
      ]);
      connector = startConnector({
        baseUrl: helix.url,
        bindingId: BINDING,
        worldId: 'minecraft:helix-test',
        bearer: SOURCE_BEARER,
        actionBearer: ACTION_BEARER,
        minecraftPort: game.port,
        username: PLAYER,
        env: connectorEnv,
      });
      // Ready once the lane polls and a snapshot shows the gifts (they arrive after the spawn).
      await until(() => helix.requests.some((r) => r.route === 'actions/pending'), 30_000);
      await until(() => /"name":"diamond_pickaxe"/.test(JSON.stringify(helix.requests)), 15_000);
      spawn = await serverPosition();
    }, 60_000);
    afterAll(async () => {
      await connector?.stop('SIGKILL');
      await game?.stop('SIGKILL');
      helix?.server.close();
    });

    it('MC-15: look_at, hotbar_select, equip and jump complete with the postcondition the game reports', async () => {
      const look = await act({ kind: 'look_at', target: { x: spawn.x + 4, y: spawn.y + 1.62, z: spawn.z } });
      expect(look).toMatchObject({ status: 'completed', reason: null, postcondition: { kind: 'look' } });
      // mineflayer's yaw is atan2(-dx, -dz): looking along +x at eye height is yaw -π/2, pitch 0.
      const seen = look.postcondition as { yaw: number; pitch: number };
      expect(Math.abs(Math.sin(seen.yaw) + 1)).toBeLessThan(0.05);
      expect(Math.abs(seen.pitch)).toBeLessThan(0.05);

      expect(await act({ kind: 'hotbar_select', slot: 3 })).toMatchObject({
        status: 'completed',
        postcondition: { kind: 'hotbar', slot: 3 },
      });
      expect(await act({ kind: 'equip', item: 'diamond_pickaxe', destination: 'hand' })).toMatchObject({
        status: 'completed',
        postcondition: { kind: 'equipped', destination: 'hand', item: 'diamond_pickaxe' },
      });
      expect(await act({ kind: 'equip', item: 'golden_apple', destination: 'hand' })).toMatchObject({
        status: 'failed',
        reason: 'no_such_item',
      });
      expect(await act({ kind: 'jump' })).toMatchObject({ status: 'completed', postcondition: { kind: 'position' } });
      expect(await act({ kind: 'follow', player: 'nobody_here', range: 2, duration_ms: 1_000 })).toMatchObject({
        status: 'failed',
        reason: 'no_such_player',
      });
    });

    it('MC-12, D-10: mine makes the server block air, then place puts dirt back where it was', async () => {
      const target = { x: Math.floor(spawn.x) + 1, y: Math.floor(spawn.y) - 1, z: Math.floor(spawn.z) };
      expect(await game.blockAt(target.x, target.y, target.z)).not.toBe('air');

      const mined = await act({ kind: 'mine', target });
      expect(mined).toMatchObject({ status: 'completed', postcondition: { kind: 'block', target, block: 'air' } });
      expect(await game.blockAt(target.x, target.y, target.z)).toBe('air');

      const placed = await act({ kind: 'place', target, item: 'dirt' });
      expect(placed).toMatchObject({ status: 'completed', postcondition: { kind: 'block', target, block: 'dirt' } });
      expect(await game.blockAt(target.x, target.y, target.z)).toBe('dirt');

      // An occupied target, or an item the player does not hold: refused with a machine reason, the world unchanged.
      expect(await act({ kind: 'place', target, item: 'dirt' })).toMatchObject({
        status: 'failed',
        reason: 'occupied',
      });
      const above = { ...target, y: target.y + 1, x: target.x + 1 };
      expect(await act({ kind: 'place', target: above, item: 'gold_block' })).toMatchObject({
        status: 'failed',
        reason: 'no_such_item',
      });
      expect(await game.blockAt(target.x, target.y, target.z)).toBe('dirt');
      expect(await game.blockAt(above.x, above.y, above.z)).toBe('air');
    });

    it('MC-12: a target beyond maxReachBlocks is blocked (out_of_reach) and the player does not move', async () => {
      const before = await serverPosition();
      const far = await act({ kind: 'navigate_to', target: { x: before.x + 100, y: before.y, z: before.z }, range: 1 });
      expect(far).toMatchObject({ status: 'blocked', reason: 'out_of_reach', postcondition: { kind: 'position' } });
      expect(flatDistance(await serverPosition(), before)).toBeLessThan(0.05);
    });

    it('MC-15, D-10: navigate_to a point 6 blocks away completes, and the server has the player there', async () => {
      const before = await serverPosition();
      const target = { x: Math.floor(before.x) + 0.5, y: Math.floor(before.y), z: Math.floor(before.z) + 6.5 };
      const result = await act({ kind: 'navigate_to', target, range: 1 });
      expect(result).toMatchObject({ status: 'completed', postcondition: { kind: 'position' } });
      expect((result.postcondition as { distance_to_target: number }).distance_to_target).toBeLessThanOrEqual(2);
      await expect.poll(async () => flatDistance(await serverPosition(), target), { timeout: 3_000 }).toBeLessThan(2);
    });

    it('M-03, MC-12: emergency_stop during a long navigate_to stops it (stationary, drift < 0.05) and the server position stays put', async () => {
      const before = await serverPosition();
      const target = { x: Math.floor(before.x) + 0.5, y: Math.floor(before.y), z: Math.floor(before.z) - 30.5 };
      const actionId = queue({ kind: 'navigate_to', target, range: 1 }, 30_000);
      // Moving for real (the server sees it) before the stop is issued.
      await expect
        .poll(async () => flatDistance(await serverPosition(), before), { timeout: 10_000 })
        .toBeGreaterThan(2);
      const controlId = nextId('control');
      helix.controls.push({
        control_id: controlId,
        workflow_ref: WORKFLOW,
        control: 'emergency_stop',
        issued_at: new Date().toISOString(),
      });
      await expect
        .poll(() => helix.requests.find((r) => r.route === 'controls/result')?.body, { timeout: 10_000 })
        .toMatchObject({
          control_id: controlId,
          control: 'emergency_stop',
          status: 'stopped',
          postcondition: { kind: 'stationary', window_ticks: 5 },
        });
      const control = helix.requests.find((r) => r.route === 'controls/result')!.body;
      expect((control.postcondition as { drift_blocks: number }).drift_blocks).toBeLessThan(0.05);
      expect(
        helix.requests.find((r) => r.route === 'actions/result' && r.body.action_id === actionId)?.body,
      ).toMatchObject({
        status: 'stopped',
        reason: 'emergency_stop',
      });

      // Stopped short of the target, and the server's position does not move on afterwards.
      const stoppedAt = await serverPosition();
      expect(flatDistance(stoppedAt, target)).toBeGreaterThan(5);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(flatDistance(await serverPosition(), stoppedAt)).toBeLessThan(0.05);
    });

    it('MC-15, MC-12: walk moves the player on the server; one still running at its deadline is stopped and reported failed (deadline)', async () => {
      const start = await serverPosition();
      expect(await act({ kind: 'walk', direction: 'left', ticks: 10 })).toMatchObject({
        status: 'completed',
        postcondition: { kind: 'position' },
      });
      await expect
        .poll(async () => flatDistance(await serverPosition(), start), { timeout: 3_000 })
        .toBeGreaterThan(0.5);

      const before = await serverPosition();
      const result = await act({ kind: 'walk', direction: 'back', ticks: 100 }, 1_000);
      expect(result).toMatchObject({ status: 'failed', reason: 'deadline', postcondition: { kind: 'position' } });
      // Released at the deadline: it walked, but far less than 100 ticks (about 20 blocks) would have taken it.
      const after = await serverPosition();
      expect(flatDistance(after, before)).toBeGreaterThan(0.5);
      expect(flatDistance(after, before)).toBeLessThan(10);
    });

    it('MC-11, M-02: no text reaches the game, each lane carries only its own bearer, and every body matches the wire', () => {
      expect(game.output()).not.toContain(`"from":"${PLAYER}"`);
      const action = helix.requests.filter((r) => r.lane === 'action');
      const ingress = helix.requests.filter((r) => r.lane === 'ingress');
      expect(action.length).toBeGreaterThan(10);
      expect(ingress.length).toBeGreaterThan(0);
      expect(helix.requests.filter((r) => r.lane === 'other')).toEqual([]);
      for (const r of action) {
        expect(r.authorization).toBe(`Bearer ${ACTION_BEARER}`);
        expect(ACTION_REQUEST_SCHEMAS[r.route as ActionRoute].safeParse(r.body).error).toBeUndefined();
      }
      for (const r of ingress) expect(r.authorization).toBe(`Bearer ${SOURCE_BEARER}`);
      for (const r of helix.requests) {
        expect(JSON.stringify(r.body) + r.url).not.toContain(ACTION_BEARER);
        expect(JSON.stringify(r.body) + r.url).not.toContain(SOURCE_BEARER);
      }
      // One process start: one producer epoch on both lanes, a fresh request id on every request.
      expect(new Set(helix.requests.map((r) => r.body.producer_epoch)).size).toBe(1);
      expect(new Set(helix.requests.map((r) => r.body.request_id)).size).toBe(helix.requests.length);
      expect(connector.output()).toContain('action lane enabled');
      expect(connector.output()).not.toContain(ACTION_BEARER);
      expect(connector.output()).not.toContain(SOURCE_BEARER);
    });

    it('M-02: a connector without an action credential stays read-only: no action loop, no request on the action lane', async () => {
      const readOnlyHelix = await startStandInHelix();
      const readOnly = startConnector({
        baseUrl: readOnlyHelix.url,
        bindingId: BINDING,
        worldId: 'minecraft:helix-test',
        bearer: SOURCE_BEARER,
        minecraftPort: game.port,
        username: 'helix_readonly',
        env: { ...connectorEnv, HELIX_CONNECTOR_HEARTBEAT_INTERVAL_MS: '300' },
      });
      try {
        await expect
          .poll(() => readOnlyHelix.requests.filter((r) => r.route === 'heartbeat').length, { timeout: 20_000 })
          .toBeGreaterThan(2);
        expect(readOnly.output()).toContain('read-only: no action credential');
        expect(readOnlyHelix.requests.filter((r) => r.lane !== 'ingress')).toEqual([]);
      } finally {
        await readOnly.stop('SIGTERM');
        readOnlyHelix.server.close();
      }
    });

    it('M-02, SRC-06: a 401 on the action lane stops the connector (exit code 2) and it leaves the game', async () => {
      const revoked = await startStandInHelix({ actionsRevoked: true });
      try {
        const rejected = startConnector({
          baseUrl: revoked.url,
          bindingId: BINDING,
          worldId: 'minecraft:helix-test',
          bearer: SOURCE_BEARER,
          actionBearer: ACTION_BEARER,
          minecraftPort: game.port,
          username: 'helix_act_revokd',
          env: connectorEnv,
        });
        expect(await rejected.exited()).toBe(2);
        expect(rejected.output()).toContain('the action credential was rejected');
        expect(rejected.output()).toContain('"code":"action_credential_revoked"');
        expect(rejected.output()).not.toContain(ACTION_BEARER);
        await expect.poll(() => game.output(), { timeout: 5_000 }).toContain('helix_act_revokd disconnected');
      } finally {
        revoked.server.close();
      }
    });
  },
);
