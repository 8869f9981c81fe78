// ING-06, HAR-14 (automated part): the real reference connector (connectors/minecraft) in a real
// flying-squid world, against the real Helix ingress (not a stand-in): the manifest is admitted,
// snapshots are stored as observations with exact provenance, and a probe a run asked for is
// answered through the ingress. Skipped, saying why, when the connector's packages are absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_CHECK_PROBE } from '../connectors/minecraft/src/wire.js';
import { sha256Hex } from '../src/domain/hashing.js';
import type { Store } from '../src/store/port.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { type ClaimedSource, insertPendingProbe, MINECRAFT_SOURCE, sourceOwner } from './support/ingressSources.js';
import {
  announceMinecraftSkip,
  type FlatWorldServer,
  startConnector,
  startFlatWorldServer,
} from './support/minecraft.js';
import { storeFlavours } from './support/stores.js';

const WORLD = 'minecraft:helix-test';
const skip = announceMinecraftSkip();
const sqlite = storeFlavours().find((f) => f.name === 'sqlite');

describe.skipIf(skip)('the reference Minecraft connector against the Helix ingress', () => {
  let h: TestHelix;
  let store: Store;
  let game: FlatWorldServer;
  let source: ClaimedSource;

  beforeAll(async () => {
    if (sqlite === undefined) throw new Error('no sqlite flavour');
    h = await startTestHelix(sqlite, { env: { HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0' } });
    store = h.testStore.store;
    source = await (await sourceOwner(h, Date.now)).newSource({ ...MINECRAFT_SOURCE, world_id: WORLD });
    game = await startFlatWorldServer({ give: 'diamond 3' });
  }, 60_000);
  afterAll(async () => {
    await game?.stop();
    await h?.close();
  });

  it('ING-01..ING-03, ING-06, PRB-02: admitted, observed with exact provenance, and the probe answered', async () => {
    const probeId = await insertPendingProbe(store, source.id, Date.now(), { runId: 'run_minecraft_ingress' });
    const connector = startConnector({
      baseUrl: h.url,
      bindingId: source.id,
      worldId: WORLD,
      bearer: source.bearer,
      minecraftPort: game.port,
      env: {
        HELIX_CONNECTOR_SNAPSHOT_INTERVAL_MS: '300',
        HELIX_CONNECTOR_HEARTBEAT_INTERVAL_MS: '300',
        HELIX_CONNECTOR_PROBE_POLL_INTERVAL_MS: '300',
      },
    });
    try {
      const hasDiamonds = (json: string | undefined) => json?.includes('"name":"diamond"') === true;
      await expect
        .poll(
          async () =>
            hasDiamonds((await store.read.roomIngress.latestObservation(source.id, 'snapshot'))?.payloadJson) &&
            (await store.read.roomIngress.getProbe(probeId))?.status === 'completed' &&
            (await store.read.roomIngress.getStatus(source.id)) !== undefined,
          { timeout: 30_000, interval: 200 },
        )
        .toBe(true);
    } finally {
      expect(await connector.stop('SIGTERM'), connector.output()).toBe(0);
    }
    expect(connector.output()).toContain('manifest admitted');

    const admission = await store.read.roomSources.getCurrentAdmission(source.id);
    const snapshot = await store.read.roomIngress.latestObservation(source.id, 'snapshot');
    expect(snapshot).toMatchObject({
      roomId: source.roomId,
      worldId: WORLD,
      admissionId: admission?.admissionId,
      profileId: 'game.minecraft.readonly.v1',
      profileHash: admission?.profileHash,
      manifestId: admission?.manifestId,
      manifestHash: admission?.manifestHash,
      producerEpochHash: admission?.producerEpochHash,
    });
    const payload = JSON.parse(snapshot?.payloadJson ?? '{}');
    expect(payload.player.username).toBe('helix_connector');
    expect(payload.inventory.items).toEqual([expect.objectContaining({ name: 'diamond', count: 3 })]);
    expect(snapshot?.payloadSha256).toBe(sha256Hex(snapshot?.payloadJson ?? ''));

    const probe = await store.read.roomIngress.getProbe(probeId);
    const answer = await store.read.roomIngress.getObservation(probe?.observationId ?? '');
    expect(answer).toMatchObject({ kind: 'probe_result', eventId: probeId, admissionId: admission?.admissionId });
    expect(JSON.parse(answer?.payloadJson ?? '{}')).toMatchObject({
      probe_type: INVENTORY_CHECK_PROBE,
      status: 'completed',
      result: { inventory: { items: [expect.objectContaining({ name: 'diamond', count: 3 })] } },
    });
    expect((await store.read.roomIngress.getStatus(source.id))?.gameConnected).toBe(true);
    expect(connector.output()).not.toContain(source.bearer);
  }, 60_000);
});
