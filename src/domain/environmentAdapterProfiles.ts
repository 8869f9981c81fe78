import { EXECUTABLE_ACTION_KINDS, type ExecutableActionKind, WORLD_MUTATING_KINDS } from './embodiment.js';
import { canonicalJson, sha256Hex } from './hashing.js';

/**
 * The code-owned environment adapter profiles (docs/spec/shared-live-room-requirements.md ING-04,
 * §22 "Adapter registry", M-01). A profile is the only thing that says what a source of a kind may
 * submit; a producer's manifest can prove it is compatible with one, never create or change one.
 * Adding a game means adding a reviewed profile here (docs/rooms.md "The adapter registry").
 */
export const ENVIRONMENT_ADAPTER_PROFILE_SCHEMA = 'helix.environment_adapter_profile.v1';

export const ADAPTER_LIFECYCLES = ['enabled', 'fixture_only'] as const;
export type AdapterLifecycle = (typeof ADAPTER_LIFECYCLES)[number];

/** The Minecraft inventory probe every Minecraft source must answer (M-01). */
export const MINECRAFT_INVENTORY_CHECK_PROBE = 'com.casimirbot.minecraft.inventory.check';

export interface AdapterCeilings {
  /** Largest JSON payload of one ingress request, in bytes. */
  readonly max_payload_bytes: number;
  /** Most world events in one batch. */
  readonly max_batch_events: number;
  /** A source whose last heartbeat is older than this is not live. */
  readonly heartbeat_max_age_ms: number;
  /** An observation older than this is never projected as evidence. */
  readonly observation_max_age_ms: number;
}

export interface EnvironmentAdapterProfile {
  readonly schema: typeof ENVIRONMENT_ADAPTER_PROFILE_SCHEMA;
  readonly profile_id: string;
  readonly profile_version: number;
  readonly lifecycle: AdapterLifecycle;
  readonly environment_domain: string;
  readonly source_family: string;
  /** Exact `domain_adapter` values a source of this profile is created with. */
  readonly domain_adapters: readonly string[];
  /** A source's `world_id` starts with one of these. */
  readonly world_id_prefixes: readonly string[];
  readonly protocol_versions: readonly string[];
  readonly mechanics_collections: readonly string[];
  /** What every manifest must declare it observes. */
  readonly required_modalities: readonly string[];
  readonly allowed_probe_types: readonly string[];
  readonly required_probe_types: readonly string[];
  readonly ceilings: AdapterCeilings;
  /** The server-owned normalizer that turns this profile's events into observations. */
  readonly normalizer: string;
  /**
   * SRC-07, SRC-08: the source (its ingress lane and its bearer) is read-only, and its credential is
   * never an action credential. Actions never travel on the source lane: only on the separate
   * action lane below, with its own credential (M-02).
   */
  readonly execution_policy: { readonly live_actions: false; readonly credential_reuse: false };
  /**
   * M-01, D-10, D-11: the action lane a connector of this profile polls, if any: the typed action
   * kinds it admits and those that need a runtime approval receipt. Null: no action lane, no
   * action credential, no subjects.
   */
  readonly action_lane: {
    readonly action_kinds: readonly ExecutableActionKind[];
    readonly approval_required_kinds: readonly ExecutableActionKind[];
  } | null;
}

const READ_ONLY = { live_actions: false, credential_reuse: false } as const;

export const MINECRAFT_READONLY_PROFILE: EnvironmentAdapterProfile = {
  schema: ENVIRONMENT_ADAPTER_PROFILE_SCHEMA,
  profile_id: 'game.minecraft.readonly.v1',
  profile_version: 1,
  lifecycle: 'enabled',
  environment_domain: 'game',
  source_family: 'minecraft.java',
  // The reference connector (connectors/minecraft) names the profile itself as its adapter.
  domain_adapters: ['game.minecraft.readonly.v1'],
  world_id_prefixes: ['minecraft:'],
  // D-10: the versions both flying-squid and mineflayer speak.
  protocol_versions: ['1.20.2', '1.21.4'],
  mechanics_collections: ['mechanics.minecraft.java.v1'],
  required_modalities: ['position', 'vitals', 'inventory'],
  allowed_probe_types: [MINECRAFT_INVENTORY_CHECK_PROBE],
  required_probe_types: [MINECRAFT_INVENTORY_CHECK_PROBE],
  // The reference connector's largest batch (16 full snapshots) is about 180 KiB.
  ceilings: {
    max_payload_bytes: 256 * 1024,
    max_batch_events: 16,
    heartbeat_max_age_ms: 30_000,
    observation_max_age_ms: 60_000,
  },
  normalizer: 'helix.normalizer.minecraft.readonly.v1',
  execution_policy: READ_ONLY,
  // What the reference connector executes and flying-squid lets it verify (D-10).
  action_lane: { action_kinds: EXECUTABLE_ACTION_KINDS, approval_required_kinds: WORLD_MUTATING_KINDS },
};

/** The fixture-only second adapter: no game, for cross-adapter isolation tests (§23.3). */
export const SYNTHETIC_FIXTURE_PROFILE: EnvironmentAdapterProfile = {
  schema: ENVIRONMENT_ADAPTER_PROFILE_SCHEMA,
  profile_id: 'game.synthetic_fixture.readonly.v1',
  profile_version: 1,
  lifecycle: 'fixture_only',
  environment_domain: 'game',
  source_family: 'synthetic_game',
  domain_adapters: ['synthetic_game.fixture.v1'],
  world_id_prefixes: ['synthetic-game:'],
  protocol_versions: ['synthetic.1'],
  mechanics_collections: ['mechanics.synthetic_game.fixture.v1'],
  required_modalities: ['position'],
  allowed_probe_types: ['synthetic_game.fixture.inventory.check'],
  required_probe_types: [],
  ceilings: {
    max_payload_bytes: 16 * 1024,
    max_batch_events: 4,
    heartbeat_max_age_ms: 30_000,
    observation_max_age_ms: 60_000,
  },
  normalizer: 'helix.normalizer.synthetic_game.fixture.v1',
  execution_policy: READ_ONLY,
  action_lane: null,
};

export const ENVIRONMENT_ADAPTER_PROFILES: readonly EnvironmentAdapterProfile[] = [
  MINECRAFT_READONLY_PROFILE,
  SYNTHETIC_FIXTURE_PROFILE,
];

/** The domain adapters whose connector embodies a player and polls the action lane (docs/embodiment.md). */
export const ACTION_LANE_ADAPTERS: readonly string[] = ENVIRONMENT_ADAPTER_PROFILES.filter(
  (p) => p.action_lane !== null,
).flatMap((p) => p.domain_adapters);

/** SHA-256 over the canonical JSON of the whole profile: any change to a profile changes its hash. */
export const profileContractHash = (profile: EnvironmentAdapterProfile): string => sha256Hex(canonicalJson(profile));
