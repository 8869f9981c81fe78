// The connector's view of the source ingress protocol (docs/connectors.md#the-protocol;
// docs/spec/shared-live-room-requirements.md §8 ING-01..ING-03 and §22). One module holds every
// shape the connector sends or reads, so the Helix side can implement the same contract.
//
// Every request body is strict (no unknown fields) and bounded. Every POST carries a fresh
// `request_id` (reused only when the same request is retried, so Helix can refuse a replay) and the
// `producer_epoch` of this process start (a new epoch needs a new manifest admission).
import { z } from 'zod';

export const INGRESS_PREFIX = '/api/room-ingress/v1/bindings';
export const DOMAIN_ADAPTER = 'game.minecraft.readonly.v1';
export const MECHANICS_COLLECTION = 'mechanics.minecraft.java.v1';
export const INVENTORY_CHECK_PROBE = 'com.casimirbot.minecraft.inventory.check';

export const INGRESS_ROUTES = [
  'manifest',
  'heartbeat',
  'world-events/batch',
  'probes/pending',
  'probes/result',
] as const;
export type IngressRoute = (typeof INGRESS_ROUTES)[number];

export const MODALITIES = ['position', 'vitals', 'inventory', 'nearby_blocks', 'nearby_entities', 'time'] as const;
export const PROBE_RESULT_STATUSES = ['completed', 'unsupported', 'failed'] as const;

/** The bounds the connector keeps; Helix enforces its own (equal or smaller) ceilings. */
export const LIMITS = {
  maxBatchEvents: 16,
  maxInventoryItems: 46,
  maxNearbyBlockKinds: 32,
  nearbyBlockRadius: 2,
  maxNearbyEntities: 16,
  nearbyEntityRadius: 16,
  maxPendingProbes: 8,
  maxNameLength: 64,
} as const;

const id = z.string().regex(/^[A-Za-z0-9._:-]{16,128}$/);
const timestamp = z.iso.datetime({ offset: false });
const name = z.string().min(1).max(LIMITS.maxNameLength);
const finite = z.number().finite();
const vec3 = z.strictObject({ x: finite, y: finite, z: finite });

/** Fields every POST body starts with. */
const envelope = {
  request_id: id,
  producer_epoch: id,
  sent_at: timestamp,
};

export const manifestRequest = z.strictObject({
  schema: z.literal('helix.environment_source_manifest.v1'),
  ...envelope,
  domain_adapter: z.literal(DOMAIN_ADAPTER),
  world_id: z.string().regex(/^minecraft:[A-Za-z0-9._:-]{1,120}$/),
  protocol_version: z.string().regex(/^1\.\d{1,2}(\.\d{1,2})?$/),
  mechanics_collections: z.tuple([z.literal(MECHANICS_COLLECTION)]),
  modalities: z.array(z.enum(MODALITIES)).min(1).max(MODALITIES.length),
  probe_types: z.tuple([z.literal(INVENTORY_CHECK_PROBE)]),
  producer: z.strictObject({ name: z.literal('helix-minecraft-connector'), version: name }),
});
export type ManifestRequest = z.infer<typeof manifestRequest>;

export const heartbeatRequest = z.strictObject({
  schema: z.literal('helix.environment_source_heartbeat.v1'),
  ...envelope,
  game_connected: z.boolean(),
  last_observed_at: timestamp.nullable(),
});
export type HeartbeatRequest = z.infer<typeof heartbeatRequest>;

const inventoryItem = z.strictObject({
  slot: z.number().int().min(0).max(255),
  name,
  count: z.number().int().min(1).max(127),
});
export const inventory = z.strictObject({ items: z.array(inventoryItem).max(LIMITS.maxInventoryItems) });
export type Inventory = z.infer<typeof inventory>;

export const snapshot = z.strictObject({
  player: z.strictObject({
    username: name,
    position: vec3,
    yaw: finite,
    pitch: finite,
    dimension: name,
    game_mode: name,
  }),
  vitals: z.strictObject({
    health: z.number().min(0).max(1024),
    food: z.number().int().min(0).max(20),
    // null until the server has sent its first health update (flying-squid sends none for it).
    saturation: z.number().min(0).max(20).nullable(),
  }),
  inventory,
  nearby_blocks: z.strictObject({
    radius: z.literal(LIMITS.nearbyBlockRadius),
    standing_on: name.nullable(),
    counts: z.array(z.strictObject({ name, count: z.number().int().min(1).max(125) })).max(LIMITS.maxNearbyBlockKinds),
  }),
  nearby_entities: z
    .array(
      z.strictObject({ type: name, name, distance: z.number().min(0).max(LIMITS.nearbyEntityRadius), position: vec3 }),
    )
    .max(LIMITS.maxNearbyEntities),
  time: z.strictObject({
    time_of_day: z.number().int().min(0).max(23_999),
    day: z.number().int().min(0),
    is_day: z.boolean(),
  }),
});
export type Snapshot = z.infer<typeof snapshot>;

export const worldEvent = z.strictObject({
  event_id: id,
  kind: z.literal('snapshot'),
  observed_at: timestamp,
  snapshot,
});
export type WorldEvent = z.infer<typeof worldEvent>;

export const worldEventBatchRequest = z.strictObject({
  schema: z.literal('helix.environment_world_event_batch.v1'),
  ...envelope,
  world_id: manifestRequest.shape.world_id,
  events: z.array(worldEvent).min(1).max(LIMITS.maxBatchEvents),
});
export type WorldEventBatchRequest = z.infer<typeof worldEventBatchRequest>;

export const pendingProbesRequest = z.strictObject({
  schema: z.literal('helix.environment_probe_poll.v1'),
  ...envelope,
  max_probes: z.number().int().min(1).max(LIMITS.maxPendingProbes),
});
export type PendingProbesRequest = z.infer<typeof pendingProbesRequest>;

/** Helix's answer to a poll. Read loosely (extra fields ignored) but every probe is checked. */
export const pendingProbesResponse = z.object({
  probes: z
    .array(z.object({ probe_id: id, probe_type: z.string().min(1).max(200), requested_at: timestamp }))
    .max(LIMITS.maxPendingProbes),
});
export type PendingProbe = z.infer<typeof pendingProbesResponse>['probes'][number];

export const probeResultRequest = z.strictObject({
  schema: z.literal('helix.environment_probe_result.v1'),
  ...envelope,
  probe_id: id,
  probe_type: z.string().min(1).max(200),
  status: z.enum(PROBE_RESULT_STATUSES),
  observed_at: timestamp,
  result: z.strictObject({ inventory }).nullable(),
});
export type ProbeResultRequest = z.infer<typeof probeResultRequest>;

/** The schemas by route, so a test (or the server side) can check any recorded body. */
export const REQUEST_SCHEMAS = {
  manifest: manifestRequest,
  heartbeat: heartbeatRequest,
  'world-events/batch': worldEventBatchRequest,
  'probes/pending': pendingProbesRequest,
  'probes/result': probeResultRequest,
} as const satisfies Record<IngressRoute, z.ZodType>;

/** The URL of one ingress route for a binding. */
export const ingressUrl = (baseUrl: string, bindingId: string, route: IngressRoute): string =>
  `${baseUrl.replace(/\/+$/, '')}${INGRESS_PREFIX}/${encodeURIComponent(bindingId)}/${route}`;
