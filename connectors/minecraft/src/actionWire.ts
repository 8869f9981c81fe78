// The connector's view of the action lane (docs/spec/shared-live-room-requirements.md MC-06, MC-07,
// MC-11, MC-12, MC-15, M-02, M-03, §23.3): the typed player actions Helix hands to the embodied
// player and what the connector reports back. One module holds every shape, so the Helix side can
// mirror it (src/api/…) and a test can keep the two from drifting, as for wire.ts.
//
// The action lane is not the ingress lane: its routes live under their own prefix and accept only
// the binding's ACTION credential (`hlxact_…`), never the source bearer (SRC-07, M-02); the source
// bearer is refused there, and the action credential is refused on the ingress lane.
//
// Every POST body starts with the same envelope as the ingress lane (`request_id`, `producer_epoch`,
// `sent_at`): a retry reuses its request id, a new process start has a new epoch.
//
// No action is an escape hatch (MC-11): there is no chat, command, RCON, file or process kind, and
// no free-text field reaches the game. Names (items, players) are matched against the game's own
// registry by the connector, never sent to the game as text.
import { z } from 'zod';

export const ACTION_PREFIX = '/api/room-actions/v1/bindings';
export const ACTION_ROUTES = ['actions/pending', 'actions/result', 'controls/result'] as const;
export type ActionRoute = (typeof ACTION_ROUTES)[number];

/** MC-15 kinds this connector executes and verifies on flying-squid (D-10); the rest are refused by Helix. */
export const EXECUTABLE_KINDS = [
  'navigate_to',
  'look_at',
  'walk',
  'jump',
  'hotbar_select',
  'equip',
  'follow',
  'mine',
  'place',
  'interact',
] as const;
export type ExecutableKind = (typeof EXECUTABLE_KINDS)[number];

/** D-11: the world-mutating kinds; Helix hands them out only with a consumed runtime approval receipt. */
export const WORLD_MUTATING_KINDS = ['mine', 'place', 'interact', 'equip'] as const satisfies readonly ExecutableKind[];

export const ACTION_LIMITS = {
  /** Most actions handed out per poll. */
  maxPendingActions: 4,
  /** Farthest target from the player, in blocks, for any positional action. */
  maxReachBlocks: 64,
  /** navigate_to / follow: how close counts as arrived. */
  maxRangeBlocks: 8,
  /** walk: at most this many game ticks (20 per second). */
  maxWalkTicks: 100,
  /** follow: at most this long. */
  maxFollowMs: 30_000,
  /** E-stop and cancel: the player counts as stationary when it moves less than this over the window. */
  stationaryEpsilonBlocks: 0.05,
  stationaryWindowTicks: 5,
  reasonMaxLength: 200,
  nameMaxLength: 64,
} as const;

const id = z.string().regex(/^[A-Za-z0-9._:-]{16,128}$/);
const timestamp = z.iso.datetime({ offset: false });
const finite = z.number().finite();
const coordinate = z.number().finite().min(-30_000_000).max(30_000_000);
const position = z.strictObject({ x: coordinate, y: coordinate.min(-2048).max(2048), z: coordinate });
/** A game registry name (`diamond_pickaxe`, `oak_planks`): lowercase identifier, never free text. */
const registryName = z
  .string()
  .regex(/^[a-z0-9_]{1,64}$/)
  .max(ACTION_LIMITS.nameMaxLength);
/** A player's in-game name, as Minecraft allows them (3-16 of A-Za-z0-9_). */
const playerName = z.string().regex(/^[A-Za-z0-9_]{3,16}$/);

const envelope = { request_id: id, producer_epoch: id, sent_at: timestamp };

/** The typed action: one `kind` and its own strict parameters (MC-03, MC-15). */
export const action = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('navigate_to'),
    target: position,
    range: z.number().min(0).max(ACTION_LIMITS.maxRangeBlocks).default(1),
  }),
  z.strictObject({ kind: z.literal('look_at'), target: position }),
  z.strictObject({
    kind: z.literal('walk'),
    direction: z.enum(['forward', 'back', 'left', 'right']),
    ticks: z.number().int().min(1).max(ACTION_LIMITS.maxWalkTicks),
  }),
  z.strictObject({ kind: z.literal('jump') }),
  z.strictObject({ kind: z.literal('hotbar_select'), slot: z.number().int().min(0).max(8) }),
  z.strictObject({
    kind: z.literal('equip'),
    item: registryName,
    destination: z.enum(['hand', 'off-hand', 'head', 'torso', 'legs', 'feet']),
  }),
  z.strictObject({
    kind: z.literal('follow'),
    player: playerName,
    range: z.number().min(1).max(ACTION_LIMITS.maxRangeBlocks).default(2),
    duration_ms: z.number().int().min(1_000).max(ACTION_LIMITS.maxFollowMs),
  }),
  /** Dig the block at `target`; verified when the server's block there is air. */
  z.strictObject({ kind: z.literal('mine'), target: position }),
  /** Place `item` so that it occupies `target`; verified when the server's block there is `item`. */
  z.strictObject({ kind: z.literal('place'), target: position, item: registryName }),
  /** Use (right-click) the block at `target`: doors, levers, buttons. */
  z.strictObject({ kind: z.literal('interact'), target: position }),
]);
export type Action = z.infer<typeof action>;

/** One action Helix hands to the connector. */
export const pendingAction = z.strictObject({
  action_id: id,
  workflow_ref: id,
  /**
   * Helix's opaque ref of the subject the action is for (never the environment-native name, MC-09).
   * One connector embodies one player, so the connector only passes it back in its logs.
   */
  subject_ref: id,
  action,
  issued_at: timestamp,
  /** The connector gives up (status `failed`, reason `deadline`) when the action is not done by then. */
  deadline_at: timestamp,
});
export type PendingAction = z.infer<typeof pendingAction>;

/** A control for a running workflow (MC-05, M-03); `resume` never reaches the connector. */
export const pendingControl = z.strictObject({
  control_id: id,
  workflow_ref: id,
  control: z.enum(['cancel', 'emergency_stop']),
  issued_at: timestamp,
});
export type PendingControl = z.infer<typeof pendingControl>;

export const actionPollRequest = z.strictObject({
  schema: z.literal('helix.environment_action_poll.v1'),
  ...envelope,
  max_actions: z.number().int().min(1).max(ACTION_LIMITS.maxPendingActions),
});
export type ActionPollRequest = z.infer<typeof actionPollRequest>;

/** Helix's answer to a poll: controls first (the connector applies them before any action). */
export const actionPollResponse = z.object({
  controls: z.array(pendingControl).max(16),
  actions: z.array(pendingAction).max(ACTION_LIMITS.maxPendingActions),
});
export type ActionPollResponse = z.infer<typeof actionPollResponse>;

/** What the connector observed after acting: the postcondition Helix checks (MC-12). */
export const postcondition = z.discriminatedUnion('kind', [
  /** navigate_to, walk, follow, jump: where the player ended (server-acknowledged position). */
  z.strictObject({ kind: z.literal('position'), position, distance_to_target: z.number().min(0).nullable() }),
  z.strictObject({ kind: z.literal('look'), yaw: finite, pitch: finite }),
  z.strictObject({ kind: z.literal('hotbar'), slot: z.number().int().min(0).max(8) }),
  z.strictObject({ kind: z.literal('equipped'), destination: z.string().max(16), item: registryName.nullable() }),
  /** mine, place, interact: the block at the target as the world reports it afterwards. */
  z.strictObject({ kind: z.literal('block'), target: position, block: registryName }),
  /** cancel, emergency_stop: the movement over the stationary window, in blocks. */
  z.strictObject({ kind: z.literal('stationary'), drift_blocks: z.number().min(0), window_ticks: z.number().int() }),
]);
export type Postcondition = z.infer<typeof postcondition>;

export const ACTION_RESULT_STATUSES = ['completed', 'blocked', 'failed', 'stopped'] as const;

export const actionResultRequest = z.strictObject({
  schema: z.literal('helix.environment_action_result.v1'),
  ...envelope,
  action_id: id,
  workflow_ref: id,
  status: z.enum(ACTION_RESULT_STATUSES),
  /** A short machine reason for anything but `completed` (`deadline`, `unreachable`, `no_such_item`…). */
  reason: z
    .string()
    .regex(/^[a-z0-9_]{1,64}$/)
    .nullable(),
  postcondition: postcondition.nullable(),
  observed_at: timestamp,
});
export type ActionResultRequest = z.infer<typeof actionResultRequest>;

export const controlResultRequest = z.strictObject({
  schema: z.literal('helix.environment_control_result.v1'),
  ...envelope,
  control_id: id,
  workflow_ref: id,
  control: z.enum(['cancel', 'emergency_stop']),
  /** `stopped` only with a stationary postcondition within the epsilon; else `failed`. */
  status: z.enum(['stopped', 'failed']),
  postcondition: postcondition.nullable(),
  observed_at: timestamp,
});
export type ControlResultRequest = z.infer<typeof controlResultRequest>;

export const ACTION_REQUEST_SCHEMAS = {
  'actions/pending': actionPollRequest,
  'actions/result': actionResultRequest,
  'controls/result': controlResultRequest,
} as const satisfies Record<ActionRoute, z.ZodType>;

export const actionUrl = (baseUrl: string, bindingId: string, route: ActionRoute): string =>
  `${baseUrl.replace(/\/+$/, '')}${ACTION_PREFIX}/${encodeURIComponent(bindingId)}/${route}`;
