// Ingress request bodies exactly as the reference connector builds them (connectors/minecraft:
// session.ts adds the envelope, connector.ts / probes.ts / observe.ts the rest), for the Helix
// side's tests. Every builder's output is valid under the connector's own wire schemas
// (test/roomIngress.wire.test.ts checks it), so Helix is tested against what the connector sends.
import { randomUUID } from 'node:crypto';
import {
  DOMAIN_ADAPTER,
  INVENTORY_CHECK_PROBE,
  LIMITS,
  MECHANICS_COLLECTION,
  MODALITIES,
  type Snapshot,
} from '../../connectors/minecraft/src/wire.js';

export const newEpoch = (): string => `epoch-${randomUUID()}`;

/** The envelope session.ts adds to every body: a fresh request id, this process's epoch, the send time. */
export const envelope = (epoch: string, at: number) => ({
  request_id: randomUUID(),
  producer_epoch: epoch,
  sent_at: new Date(at).toISOString(),
});

export const manifestBody = (epoch: string, at: number, worldId: string) => ({
  schema: 'helix.environment_source_manifest.v1',
  ...envelope(epoch, at),
  domain_adapter: DOMAIN_ADAPTER,
  world_id: worldId,
  protocol_version: '1.21.4',
  mechanics_collections: [MECHANICS_COLLECTION],
  modalities: [...MODALITIES],
  probe_types: [INVENTORY_CHECK_PROBE],
  producer: { name: 'helix-minecraft-connector', version: '0.1.0' },
});

export const heartbeatBody = (epoch: string, at: number, lastObservedAt: number | null) => ({
  schema: 'helix.environment_source_heartbeat.v1',
  ...envelope(epoch, at),
  game_connected: true,
  last_observed_at: lastObservedAt === null ? null : new Date(lastObservedAt).toISOString(),
});

/** A snapshot as observe.ts reads it from a freshly spawned player on the flat-world server. */
export const snapshot = (username = 'helix_scout', items = [{ slot: 36, name: 'diamond', count: 3 }]): Snapshot => ({
  player: {
    username,
    position: { x: 0.5, y: -60, z: 0.5 },
    yaw: 0,
    pitch: 0,
    dimension: 'overworld',
    game_mode: 'survival',
  },
  vitals: { health: 20, food: 20, saturation: null },
  inventory: { items },
  nearby_blocks: { radius: 2, standing_on: 'grass_block', counts: [{ name: 'dirt', count: 50 }] },
  nearby_entities: [],
  time: { time_of_day: 6000, day: 0, is_day: true },
});

/** The largest snapshot the connector can send: every list at its bound, every name 64 characters. */
export const largestSnapshot = (): Snapshot => {
  const name = (i: number) => `${String(i).padStart(3, '0')}${'n'.repeat(LIMITS.maxNameLength - 3)}`;
  const position = { x: -12345.67, y: 319.99, z: 12345.67 };
  return {
    ...snapshot(name(0), []),
    inventory: {
      items: Array.from({ length: LIMITS.maxInventoryItems }, (_, i) => ({ slot: i, name: name(i), count: 64 })),
    },
    nearby_blocks: {
      radius: 2,
      standing_on: name(1),
      counts: Array.from({ length: LIMITS.maxNearbyBlockKinds }, (_, i) => ({ name: name(i), count: 125 })),
    },
    nearby_entities: Array.from({ length: LIMITS.maxNearbyEntities }, (_, i) => ({
      type: name(i),
      name: name(i),
      distance: 15.99,
      position,
    })),
  };
};

export const batchBody = (epoch: string, at: number, worldId: string, snapshots: readonly Snapshot[]) => ({
  schema: 'helix.environment_world_event_batch.v1',
  ...envelope(epoch, at),
  world_id: worldId,
  events: snapshots.map((s) => ({
    event_id: randomUUID(),
    kind: 'snapshot',
    observed_at: new Date(at).toISOString(),
    snapshot: s,
  })),
});

export const pollBody = (epoch: string, at: number) => ({
  schema: 'helix.environment_probe_poll.v1',
  ...envelope(epoch, at),
  max_probes: LIMITS.maxPendingProbes,
});

export const probeResultBody = (
  epoch: string,
  at: number,
  probe: { probe_id: string; probe_type: string },
  supported = true,
) => ({
  schema: 'helix.environment_probe_result.v1',
  ...envelope(epoch, at),
  probe_id: probe.probe_id,
  probe_type: probe.probe_type,
  status: supported ? 'completed' : 'unsupported',
  observed_at: new Date(at).toISOString(),
  result: supported ? { inventory: { items: [{ slot: 36, name: 'diamond', count: 3 }] } } : null,
});
