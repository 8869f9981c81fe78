import { z } from 'zod';
import {
  CONSENT_RECEIPT_REF_PATTERN,
  REVOCATION_STATUSES,
  ROOM_BINDING_STATUSES,
  ROOM_ID_PATTERN,
  ROOM_ROLES,
  ROOM_STATUSES,
  RUN_CHAT_BINDING_REF_PATTERN,
  RUN_ROOM_BINDING_REF_PATTERN,
} from '../domain/rooms.js';
import { ErrorBodySchema, FalseFlags } from './outputSchemas.js';
import { ROOM_RECEIPT_SCHEMAS } from './roomViews.js';

/**
 * Output contract of the room receipts (src/api/roomViews.ts), published in the OpenAPI document.
 * Loose objects, as for the run projections; `roomOutputSchemas.test.ts` parses real receipts with
 * them, so they cannot drift.
 */
const isoTime = z.string();

export const RoomViewSchema = z.looseObject({
  room_id: z.string().regex(ROOM_ID_PATTERN),
  title: z.string(),
  status: z.enum(ROOM_STATUSES),
  consent_version: z.number().int(),
  created_at: isoTime.nullable(),
  membership: z.looseObject({
    role: z.enum(ROOM_ROLES),
    accepted_consent_version: z.number().int().nullable(),
    consent_current: z.boolean(),
    joined_at: isoTime.nullable(),
  }),
});

export const RoomListReceiptSchema = z.looseObject({
  schema: z.literal(ROOM_RECEIPT_SCHEMAS.list),
  rooms: z.array(RoomViewSchema),
  ...FalseFlags,
});

const roomReceiptSchema = (schema: string) =>
  z.looseObject({ schema: z.literal(schema), room: RoomViewSchema, ...FalseFlags });
export const RoomCreateReceiptSchema = roomReceiptSchema(ROOM_RECEIPT_SCHEMAS.create);
export const RoomInspectReceiptSchema = roomReceiptSchema(ROOM_RECEIPT_SCHEMAS.inspect);

export const RunBindReceiptSchema = z.looseObject({
  schema: z.literal(ROOM_RECEIPT_SCHEMAS.runBind),
  binding_ref: z.string().regex(RUN_ROOM_BINDING_REF_PATTERN),
  binding_status: z.enum(ROOM_BINDING_STATUSES),
  room_id: z.string().regex(ROOM_ID_PATTERN),
  run_id: z.string(),
  participant_role: z.enum(ROOM_ROLES),
  consent_version: z.number().int(),
  consent_receipt_ref: z.string().regex(CONSENT_RECEIPT_REF_PATTERN),
  created_at: isoTime.nullable(),
  ...FalseFlags,
});

/** WD-04: the opaque ref and what happened to it, nothing else. */
const unbindReceiptSchema = (schema: string, ref: RegExp) =>
  z.looseObject({
    schema: z.literal(schema),
    binding_ref: z.string().regex(ref),
    binding_status: z.literal('revoked'),
    revocation_status: z.enum(REVOCATION_STATUSES),
    ...FalseFlags,
  });
export const RunUnbindReceiptSchema = unbindReceiptSchema(ROOM_RECEIPT_SCHEMAS.runUnbind, RUN_ROOM_BINDING_REF_PATTERN);
export const ChatUnbindReceiptSchema = unbindReceiptSchema(
  ROOM_RECEIPT_SCHEMAS.chatBindingUnbind,
  RUN_CHAT_BINDING_REF_PATTERN,
);

/** `helix.shared_live_room.error.v1` (src/api/errorBody.ts roomErrorBody): the core error body under the room schema name, its details also in `details`. */
export const RoomErrorBodySchema = ErrorBodySchema.extend({
  schema: z.literal('helix.shared_live_room.error.v1'),
  details: z.record(z.string(), z.unknown()).optional(),
});
