import { z } from 'zod';
import {
  MINECRAFT_READONLY_PROFILE,
  SYNTHETIC_FIXTURE_PROFILE,
  type EnvironmentAdapterProfile,
} from '../domain/environmentAdapterProfiles.js';

/**
 * What each adapter profile's observations hold (§22: "world-event, snapshot, probe-result and
 * normalized-evidence schemas"; one server-owned normalizer per profile). A snapshot or probe
 * result that its profile's schema refuses is `environment_adapter_observation_schema_invalid`.
 * The Minecraft shapes and bounds are the reference connector's (connectors/minecraft/src/wire.ts).
 */
const name = z.string().min(1).max(64);
const finite = z.number().finite();
const vec3 = z.strictObject({ x: finite, y: finite, z: finite });

const minecraftInventory = z.strictObject({
  items: z
    .array(
      z.strictObject({
        slot: z.number().int().min(0).max(255),
        name,
        count: z.number().int().min(1).max(127),
      }),
    )
    .max(46),
});

export const MinecraftSnapshotSchema = z.strictObject({
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
    saturation: z.number().min(0).max(20).nullable(),
  }),
  inventory: minecraftInventory,
  nearby_blocks: z.strictObject({
    radius: z.literal(2),
    standing_on: name.nullable(),
    counts: z.array(z.strictObject({ name, count: z.number().int().min(1).max(125) })).max(32),
  }),
  nearby_entities: z
    .array(z.strictObject({ type: name, name, distance: z.number().min(0).max(16), position: vec3 }))
    .max(16),
  time: z.strictObject({
    time_of_day: z.number().int().min(0).max(23_999),
    day: z.number().int().min(0),
    is_day: z.boolean(),
  }),
});

export const MinecraftProbeResultSchema = z.strictObject({ inventory: minecraftInventory });

/** The fixture-only adapter (no game): a position, and an item list for its inventory probe. */
const fixtureItems = z.strictObject({
  items: z.array(z.strictObject({ name, count: z.number().int().min(1) })).max(16),
});
export const FixtureSnapshotSchema = z.strictObject({ position: vec3 });
export const FixtureProbeResultSchema = z.strictObject({ inventory: fixtureItems });

export interface ObservationSchemas {
  readonly snapshot: z.ZodType<Record<string, unknown>>;
  readonly probeResult: z.ZodType<Record<string, unknown>>;
}

/** Keyed by the profile's normalizer identity; a profile without an entry admits no observation. */
const BY_NORMALIZER: Readonly<Record<string, ObservationSchemas>> = {
  [MINECRAFT_READONLY_PROFILE.normalizer]: {
    snapshot: MinecraftSnapshotSchema,
    probeResult: MinecraftProbeResultSchema,
  },
  [SYNTHETIC_FIXTURE_PROFILE.normalizer]: { snapshot: FixtureSnapshotSchema, probeResult: FixtureProbeResultSchema },
};

export const observationSchemasOf = (profile: EnvironmentAdapterProfile): ObservationSchemas | undefined =>
  BY_NORMALIZER[profile.normalizer];
