import { z } from 'zod';
import { REVOCATION_STATUSES, ROOM_BINDING_STATUSES, ROOM_ROLES, ROOM_STATUSES } from '../domain/rooms.js';
import { FalseFlags } from './outputSchemas.js';
import { ROOM_RECEIPT_SCHEMAS } from './roomViews.js';

/**
 * Output contract of the room receipts (src/api/roomViews.ts), published as the `helix_room_*`
 * tools' outputSchemas. Loose objects, as for runs, so a client keeps validating when a field is
 * added; roomOutputSchemas.test.ts checks every receipt against them, so they cannot drift.
 */
const NullableInstant = z.string().nullable();

export const RoomViewSchema = z.looseObject({
  room_id: z.string(),
  title: z.string(),
  status: z.enum(ROOM_STATUSES),
  consent_version: z.number().int(),
  created_at: NullableInstant,
  membership: z.looseObject({
    role: z.enum(ROOM_ROLES),
    accepted_consent_version: z.number().int().nullable(),
    consent_current: z.boolean(),
    joined_at: NullableInstant,
  }),
});

export const RoomListReceiptSchema = z.looseObject({
  schema: z.literal(ROOM_RECEIPT_SCHEMAS.list),
  rooms: z.array(RoomViewSchema),
  ...FalseFlags,
});

const roomReceiptSchema = (schema: string) =>
  z.looseObject({ schema: z.literal(schema), room: RoomViewSchema, ...FalseFlags });
export const RoomInspectReceiptSchema = roomReceiptSchema(ROOM_RECEIPT_SCHEMAS.inspect);
export const RoomCreateReceiptSchema = roomReceiptSchema(ROOM_RECEIPT_SCHEMAS.create);

export const RunBindReceiptSchema = z.looseObject({
  schema: z.literal(ROOM_RECEIPT_SCHEMAS.runBind),
  binding_ref: z.string(),
  binding_status: z.enum(ROOM_BINDING_STATUSES),
  room_id: z.string(),
  run_id: z.string(),
  participant_role: z.enum(ROOM_ROLES),
  consent_version: z.number().int(),
  consent_receipt_ref: z.string(),
  created_at: NullableInstant,
  ...FalseFlags,
});

const unbindReceiptSchema = (schema: string) =>
  z.looseObject({
    schema: z.literal(schema),
    binding_ref: z.string(),
    binding_status: z.literal('revoked'),
    revocation_status: z.enum(REVOCATION_STATUSES),
    ...FalseFlags,
  });
export const RunUnbindReceiptSchema = unbindReceiptSchema(ROOM_RECEIPT_SCHEMAS.runUnbind);
export const ChatUnbindReceiptSchema = unbindReceiptSchema(ROOM_RECEIPT_SCHEMAS.chatBindingUnbind);
