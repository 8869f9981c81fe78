// The reference Minecraft connector (connectors/minecraft, docs/connectors.md) against a real
// flying-squid server and a stand-in for Helix's source ingress: a loopback HTTP server that
// records every request and serves one pending inventory probe.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVENTORY_CHECK_PROBE,
  REQUEST_SCHEMAS,
  type IngressRoute,
  type Snapshot,
} from '../connectors/minecraft/src/wire.js';
import {
  announceMinecraftSkip,
  type ChildHandle,
  type FlatWorldServer,
  startConnector,
  startFlatWorldServer,
} from './support/minecraft.js';

const BEARER = 'hlxsrc_test_0123456789abcdefghijklmnopqrstuv';
const BINDING = 'binding_0123456789abcdef';
const PROBE_ID = 'probe_0123456789abcdef01';
const PREFIX = `/api/room-ingress/v1/bindings/${BINDING}/`;

interface Recorded {
  readonly route: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown>;
}

/**
 * The stand-in ingress: records requests; answers one inventory probe on the first poll. With
 * `revoked`, every call after the manifest answers 401 as Helix does for a revoked source bearer.
 */
const startStandInIngress = async (
  options: { revoked?: boolean } = {},
): Promise<{ server: Server; url: string; requests: Recorded[] }> => {
  const requests: Recorded[] = [];
  let probeServed = false;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = req.url ?? '';
      const route = url.startsWith(PREFIX) ? url.slice(PREFIX.length) : url;
      requests.push({ route, url, authorization: req.headers.authorization, body: JSON.parse(raw || '{}') });
      const reply =
        route === 'probes/pending'
          ? {
              probes: probeServed
                ? []
                : [{ probe_id: PROBE_ID, probe_type: INVENTORY_CHECK_PROBE, requested_at: new Date().toISOString() }],
            }
          : { accepted: true };
      if (route === 'probes/pending') probeServed = true;
      if (options.revoked && route !== 'manifest') {
        const error = { schema: 'helix.shared_live_room.error.v1', code: 'source_credential_revoked', status: 401 };
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
};

const skip = announceMinecraftSkip();

describe.skipIf(skip)('D-10, ING-06: the reference Minecraft connector against flying-squid', () => {
  let game: FlatWorldServer;
  let ingress: Awaited<ReturnType<typeof startStandInIngress>>;
  let connector: ChildHandle | undefined;

  beforeAll(async () => {
    [game, ingress] = await Promise.all([startFlatWorldServer({ give: 'diamond 3' }), startStandInIngress()]);
  });
  afterAll(async () => {
    await connector?.stop('SIGKILL');
    await game?.stop('SIGKILL');
    ingress?.server.close();
  });

  it('ING-01, ING-03, PRB-02: registers its manifest, then heartbeats, reports the game it sees and answers the inventory probe', async () => {
    connector = startConnector({
      baseUrl: ingress.url,
      bindingId: BINDING,
      worldId: 'minecraft:helix-test',
      bearer: BEARER,
      minecraftPort: game.port,
      env: {
        HELIX_CONNECTOR_SNAPSHOT_INTERVAL_MS: '500',
        HELIX_CONNECTOR_HEARTBEAT_INTERVAL_MS: '500',
        HELIX_CONNECTOR_PROBE_POLL_INTERVAL_MS: '300',
      },
    });
    const hasDiamonds = (s: Snapshot) => s.inventory.items.some((i) => i.name === 'diamond' && i.count === 3);
    const snapshots = () =>
      ingress.requests
        .filter((r) => r.route === 'world-events/batch')
        .flatMap((r) => (r.body.events as { snapshot: Snapshot }[]).map((e) => e.snapshot));
    await expect
      .poll(() => snapshots().some(hasDiamonds) && ingress.requests.some((r) => r.route === 'probes/result'), {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(true);
    expect(await connector.stop('SIGTERM')).toBe(0);

    const routes = ingress.requests.map((r) => r.route);
    expect(routes[0]).toBe('manifest');
    expect(routes.filter((r) => r === 'manifest')).toHaveLength(1);
    expect(routes).toContain('heartbeat');
    // Every body matches the strict wire schema; every request carries its own identity and the
    // process's one producer epoch; the bearer is in the Authorization header and nowhere else.
    for (const r of ingress.requests) {
      expect(REQUEST_SCHEMAS[r.route as IngressRoute].safeParse(r.body).error).toBeUndefined();
      expect(r.authorization).toBe(`Bearer ${BEARER}`);
      expect(JSON.stringify(r.body) + r.url).not.toContain(BEARER);
    }
    expect(new Set(ingress.requests.map((r) => r.body.request_id)).size).toBe(ingress.requests.length);
    expect(new Set(ingress.requests.map((r) => r.body.producer_epoch)).size).toBe(1);
    expect(ingress.requests[0]!.body).toMatchObject({
      domain_adapter: 'game.minecraft.readonly.v1',
      world_id: 'minecraft:helix-test',
      protocol_version: '1.21.4',
      mechanics_collections: ['mechanics.minecraft.java.v1'],
      probe_types: [INVENTORY_CHECK_PROBE],
    });

    // The snapshot is the game as the server has it: the spawn position the server announced,
    // the superflat grass under the feet, full vitals, and the diamonds the server gave.
    const spawned = /\{"spawned":"helix_connector","position":(\{[^}]*\})\}/.exec(game.output());
    expect(spawned).not.toBeNull();
    const serverPosition = JSON.parse(spawned![1]!) as { x: number; y: number; z: number };
    const seen = snapshots().find(hasDiamonds)!;
    expect(seen.player.username).toBe('helix_connector');
    expect(seen.player.position.x).toBeCloseTo(serverPosition.x, 0);
    expect(seen.player.position.z).toBeCloseTo(serverPosition.z, 0);
    expect(seen.nearby_blocks.standing_on).toBe('grass_block');
    expect(seen.vitals).toMatchObject({ health: 20, food: 20 });
    expect(seen.time.time_of_day).toBeGreaterThanOrEqual(0);

    const result = ingress.requests.find((r) => r.route === 'probes/result')!.body;
    expect(result).toMatchObject({ probe_id: PROBE_ID, probe_type: INVENTORY_CHECK_PROBE, status: 'completed' });
    expect((result.result as Snapshot['inventory'] & { inventory: Snapshot['inventory'] }).inventory.items).toEqual([
      expect.objectContaining({ name: 'diamond', count: 3 }),
    ]);
    expect(ingress.requests.filter((r) => r.route === 'probes/result')).toHaveLength(1);

    // Clean shutdown: it said so, left the game (the server saw the player go), and never logged the bearer.
    expect(connector.output()).toContain('"message":"connector stopped","reason":"stopped"');
    await expect.poll(() => game.output(), { timeout: 5_000 }).toContain('helix_connector disconnected');
    expect(connector.output()).not.toContain(BEARER);
  });

  it('SRC-06, SRC-07: stops with exit code 2 and leaves the game when Helix rejects the source credential', async () => {
    const revoked = await startStandInIngress({ revoked: true });
    try {
      const rejected = startConnector({
        baseUrl: revoked.url,
        bindingId: BINDING,
        worldId: 'minecraft:helix-test',
        bearer: BEARER,
        minecraftPort: game.port,
        username: 'helix_revoked',
        env: { HELIX_CONNECTOR_SNAPSHOT_INTERVAL_MS: '500', HELIX_CONNECTOR_HEARTBEAT_INTERVAL_MS: '500' },
      });
      // No signal: the connector ends by itself after the first 401.
      expect(await rejected.exited()).toBe(2);
      expect(rejected.output()).toContain('"code":"source_credential_revoked"');
      expect(revoked.requests.map((r) => r.route)[0]).toBe('manifest');
      await expect.poll(() => game.output(), { timeout: 5_000 }).toContain('helix_revoked disconnected');
    } finally {
      revoked.server.close();
    }
  });
});
