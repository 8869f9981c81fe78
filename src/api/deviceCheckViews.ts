import { z } from 'zod';
import { ROOM_ID_PATTERN } from '../domain/rooms.js';
import { SOURCE_ID_PATTERN, SOURCE_STATUSES } from '../domain/roomSources.js';
import { NON_AUTHORITY_FLAGS } from './flags.js';
import { FalseFlags } from './outputSchemas.js';

/**
 * The Device Check receipt (DC-02 [impl]; docs/rooms.md "Device Check"): for each room the caller
 * is a member of, whether its environment sources can deliver evidence right now, check by check.
 * It never holds a credential, a producer epoch, a manifest or an observation's content (DC-03:
 * the read-only plugin learns connection state, not the run, room or source catalog beyond this).
 */
export const DEVICE_CHECK_SCHEMA = 'helix.environment_device_check.v1';

/** At most this many rooms and sources per room are checked in one call; `truncated` says when more exist. */
export const DEVICE_CHECK_LIMITS = { rooms: 20, sourcesPerRoom: 20 } as const;

export const DEVICE_CHECKS = [
  'credentialed',
  'admitted',
  'heartbeat_fresh',
  'game_connected',
  'observation_fresh',
] as const;
export type DeviceCheck = (typeof DEVICE_CHECKS)[number];

const isoTime = z.string();

export const DeviceCheckSourceSchema = z.strictObject({
  source_id: z.string().regex(SOURCE_ID_PATTERN),
  source_label: z.string(),
  domain_adapter: z.string(),
  world_id: z.string(),
  status: z.enum(SOURCE_STATUSES),
  checks: z.strictObject(
    Object.fromEntries(DEVICE_CHECKS.map((c) => [c, z.boolean()])) as Record<DeviceCheck, z.ZodBoolean>,
  ),
  last_heartbeat_at: isoTime.nullable(),
  last_observation_at: isoTime.nullable(),
  /** Every check passed: a bound run can read fresh evidence from this source now. */
  ready: z.boolean(),
});
export type DeviceCheckSource = z.output<typeof DeviceCheckSourceSchema>;

export const DeviceCheckReceiptSchema = z.looseObject({
  schema: z.literal(DEVICE_CHECK_SCHEMA),
  checked_at: isoTime,
  rooms: z.array(
    z.strictObject({
      room_id: z.string().regex(ROOM_ID_PATTERN),
      title: z.string(),
      sources: z.array(DeviceCheckSourceSchema),
      sources_truncated: z.boolean(),
      ready: z.boolean(),
    }),
  ),
  rooms_truncated: z.boolean(),
  /** At least one checked room has a ready source. */
  ready: z.boolean(),
  execution_enabled: z.literal(false),
  ...FalseFlags,
});
export type DeviceCheckReceipt = z.output<typeof DeviceCheckReceiptSchema>;

export const deviceCheckReceipt = (
  checkedAt: number,
  rooms: DeviceCheckReceipt['rooms'],
  roomsTruncated: boolean,
): DeviceCheckReceipt => ({
  schema: DEVICE_CHECK_SCHEMA,
  checked_at: new Date(checkedAt).toISOString(),
  rooms,
  rooms_truncated: roomsTruncated,
  ready: rooms.some((r) => r.ready),
  execution_enabled: false,
  ...NON_AUTHORITY_FLAGS,
});
