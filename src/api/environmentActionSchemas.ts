import { z } from 'zod';
import { isCredentialShaped } from '../domain/credentialShape.js';

/**
 * The action lane's request bodies, Helix's side (docs/spec/shared-live-room-requirements.md MC-03,
 * MC-11, MC-12, MC-15, M-02, M-03, §23.3; docs/embodiment.md "The action lane"). The connector's
 * side of the same contract is connectors/minecraft/src/actionWire.ts; test/environmentActions.wire.test.ts
 * checks that what it builds is accepted here and what Helix answers is accepted there, so the two
 * cannot drift. No body carries free text for the game (MC-11): every name is a registry
 * identifier, every reason a machine token.
 */
export const ACTION_LANE_LIMITS = {
  maxPendingActions: 4,
  maxPendingControls: 16,
  maxReachBlocks: 64,
  maxRangeBlocks: 8,
  maxWalkTicks: 100,
  maxFollowMs: 30_000,
  /** M-03: a stop counts only when the player drifted less than this over the window. */
  stationaryEpsilonBlocks: 0.05,
  nameMaxLength: 64,
} as const;

/** request_id, producer_epoch, action_id, workflow_ref: the connector's id format, never credential-shaped. */
const laneId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{16,128}$/, 'must be 16-128 of A-Za-z0-9._:-')
  .refine((value) => !isCredentialShaped(value), 'must not contain a credential');
const timestamp = z.iso.datetime({ offset: false });
const finite = z.number().finite();
const coordinate = z.number().finite().min(-30_000_000).max(30_000_000);
const position = z.strictObject({ x: coordinate, y: coordinate.min(-2048).max(2048), z: coordinate });
const registryName = z.string().regex(/^[a-z0-9_]{1,64}$/, 'must be a registry name');
const machineReason = z.string().regex(/^[a-z0-9_]{1,64}$/, 'must be a machine reason');

const envelope = { request_id: laneId, producer_epoch: laneId, sent_at: timestamp };

export const ACTION_CONTROLS = ['cancel', 'emergency_stop'] as const;

/** A player's in-game name, as Minecraft allows them (3-16 of A-Za-z0-9_): matched, never sent as text. */
const playerName = z.string().regex(/^[A-Za-z0-9_]{3,16}$/, 'must be a player name');

/**
 * The typed action (MC-03, MC-11, MC-15): one executable `kind` and its own strict parameters. There
 * is no chat, command, RCON, file or process kind and no free-text field: `/op` or `/give` fit no
 * field's pattern.
 */
export const ActionSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('navigate_to'),
    target: position,
    range: z.number().min(0).max(ACTION_LANE_LIMITS.maxRangeBlocks).default(1),
  }),
  z.strictObject({ kind: z.literal('look_at'), target: position }),
  z.strictObject({
    kind: z.literal('walk'),
    direction: z.enum(['forward', 'back', 'left', 'right']),
    ticks: z.number().int().min(1).max(ACTION_LANE_LIMITS.maxWalkTicks),
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
    range: z.number().min(1).max(ACTION_LANE_LIMITS.maxRangeBlocks).default(2),
    duration_ms: z.number().int().min(1_000).max(ACTION_LANE_LIMITS.maxFollowMs),
  }),
  z.strictObject({ kind: z.literal('mine'), target: position }),
  z.strictObject({ kind: z.literal('place'), target: position, item: registryName }),
  z.strictObject({ kind: z.literal('interact'), target: position }),
]);
export type Action = z.output<typeof ActionSchema>;
export type Postcondition = z.output<typeof PostconditionSchema>;

export const ActionPollRequestSchema = z.strictObject({
  schema: z.literal('helix.environment_action_poll.v1'),
  ...envelope,
  max_actions: z.number().int().min(1).max(ACTION_LANE_LIMITS.maxPendingActions),
});

/** MC-12: what the connector observed after acting, checked against the action. */
export const PostconditionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('position'), position, distance_to_target: z.number().min(0).nullable() }),
  z.strictObject({ kind: z.literal('look'), yaw: finite, pitch: finite }),
  z.strictObject({ kind: z.literal('hotbar'), slot: z.number().int().min(0).max(8) }),
  z.strictObject({ kind: z.literal('equipped'), destination: z.string().max(16), item: registryName.nullable() }),
  z.strictObject({ kind: z.literal('block'), target: position, block: registryName }),
  z.strictObject({ kind: z.literal('stationary'), drift_blocks: z.number().min(0), window_ticks: z.number().int() }),
]);

export const ACTION_RESULT_STATUSES = ['completed', 'blocked', 'failed', 'stopped'] as const;

export const ActionResultRequestSchema = z.strictObject({
  schema: z.literal('helix.environment_action_result.v1'),
  ...envelope,
  action_id: laneId,
  workflow_ref: laneId,
  status: z.enum(ACTION_RESULT_STATUSES),
  reason: machineReason.nullable(),
  postcondition: PostconditionSchema.nullable(),
  observed_at: timestamp,
});

export const ControlResultRequestSchema = z.strictObject({
  schema: z.literal('helix.environment_control_result.v1'),
  ...envelope,
  control_id: laneId,
  workflow_ref: laneId,
  control: z.enum(ACTION_CONTROLS),
  status: z.enum(['stopped', 'failed']),
  postcondition: PostconditionSchema.nullable(),
  observed_at: timestamp,
});

/** Helix's answer to a poll: controls first, then at most `max_actions` actions. */
export const ActionPollReceiptSchema = z.strictObject({
  controls: z
    .array(z.looseObject({ control_id: laneId, workflow_ref: laneId }))
    .max(ACTION_LANE_LIMITS.maxPendingControls),
  actions: z
    .array(z.looseObject({ action_id: laneId, workflow_ref: laneId }))
    .max(ACTION_LANE_LIMITS.maxPendingActions),
});

/** Helix's receipt for an action result: the status it recorded (a `completed` whose postcondition did not verify is `failed`, reason `postcondition_unverified`). */
export const ActionResultReceiptSchema = z.strictObject({
  action_id: laneId,
  workflow_ref: laneId,
  status: z.enum(ACTION_RESULT_STATUSES),
  reason: machineReason.nullable(),
});

/** Helix's receipt for a control result: `stopped` only for a verified stationary postcondition (M-03). */
export const ControlResultReceiptSchema = z.strictObject({
  control_id: laneId,
  workflow_ref: laneId,
  status: z.enum(['stopped', 'failed']),
});
