import { z } from 'zod';
import { SNAPSHOT_BOUNDS, SNAPSHOT_REF_PATTERN } from '../domain/chats.js';
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
import {
  ACTION_CREDENTIAL_PATTERN,
  SOURCE_BEARER_PATTERN,
  SOURCE_ID_PATTERN,
  SOURCE_STATUSES,
} from '../domain/roomSources.js';
import { ErrorBodySchema, FalseFlags } from './outputSchemas.js';
import { SOURCE_RECEIPT_SCHEMAS } from './roomSourceViews.js';
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

/** RREST-06, OBS-06: the opaque binding ref, an optional snapshot ref and bounded counts; no chat id. */
export const ChatClaimReceiptSchema = z.looseObject({
  schema: z.literal(ROOM_RECEIPT_SCHEMAS.chatBindingClaim),
  binding_ref: z.string().regex(RUN_CHAT_BINDING_REF_PATTERN),
  binding_status: z.literal('active'),
  snapshot_ref: z.string().regex(SNAPSHOT_REF_PATTERN).nullable(),
  snapshot_message_count: z.number().int().min(0).max(SNAPSHOT_BOUNDS.messages),
  snapshot_char_count: z.number().int().min(0).max(SNAPSHOT_BOUNDS.totalChars),
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

/** A room source as its owner sees it (src/api/roomSourceViews.ts): never a credential (SRC-09). */
export const SourceViewSchema = z.looseObject({
  source_id: z.string().regex(SOURCE_ID_PATTERN),
  room_id: z.string().regex(ROOM_ID_PATTERN),
  domain_adapter: z.string(),
  world_id: z.string(),
  source_label: z.string(),
  status: z.enum(SOURCE_STATUSES),
  credential_status: z.enum(['pending_claim', 'issued', 'none']),
  adapter_profile: z.looseObject({
    profile_id: z.string(),
    profile_version: z.number().int(),
    contract_hash: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  created_at: isoTime.nullable(),
  expires_at: isoTime.nullable(),
  rotated_at: isoTime.nullable(),
  revoked_at: isoTime.nullable(),
  execution_enabled: z.literal(false),
});

export const SourceListReceiptSchema = z.looseObject({
  schema: z.literal(SOURCE_RECEIPT_SCHEMAS.list),
  room_id: z.string().regex(ROOM_ID_PATTERN),
  sources: z.array(SourceViewSchema),
  truncated: z.boolean(),
  ...FalseFlags,
});

/** SRC-01, SRC-02: the delivery holds only the handle, the claim URL and the expiry; null on a replay once claimed. */
export const SourceCreateReceiptSchema = z.looseObject({
  schema: z.literal(SOURCE_RECEIPT_SCHEMAS.create),
  source: SourceViewSchema,
  credential_delivery: z
    .strictObject({ claim_handle: z.string(), claim_url: z.string(), expires_at: isoTime })
    .nullable(),
  bearer_included: z.literal(false),
  plugin_config_included: z.literal(false),
  ...FalseFlags,
});

/** SRC-06: a rotation answers the next show-once delivery, never a bearer. */
export const SourceRotateReceiptSchema = z.looseObject({
  source: SourceViewSchema,
  credential_delivery: z.strictObject({ claim_handle: z.string(), claim_url: z.string(), expires_at: isoTime }),
  bearer_included: z.literal(false),
});

/** SRC-06: revocation (POST `/revoke` and DELETE), `revoked` then `already_revoked`. */
export const SourceRevokeReceiptSchema = z.looseObject({
  source: SourceViewSchema,
  revocation_status: z.enum(REVOCATION_STATUSES),
});

/** SRC-04, SRC-05: the one answer that holds the source bearer, shown once to the developer room owner. */
export const SourceClaimReceiptSchema = z.looseObject({
  token_value: z.string().regex(SOURCE_BEARER_PATTERN),
  token_value_shown_once: z.literal(true),
  /** M-02: the separate action credential, null when the adapter has no action lane. */
  action_token_value: z.string().regex(ACTION_CREDENTIAL_PATTERN).nullable(),
  plugin_config: z.looseObject({
    ingress_base_path: z.string(),
    binding_id: z.string().regex(SOURCE_ID_PATTERN),
    room_id: z.string().regex(ROOM_ID_PATTERN),
    domain_adapter: z.string(),
    world_id: z.string(),
    adapter_profile_id: z.string(),
    action_base_path: z.string().nullable(),
  }),
  source: SourceViewSchema,
});

/** `helix.shared_live_room.error.v1` (src/api/errorBody.ts roomErrorBody): the core error body under the room schema name, its details also in `details`. */
export const RoomErrorBodySchema = ErrorBodySchema.extend({
  schema: z.literal('helix.shared_live_room.error.v1'),
  details: z.record(z.string(), z.unknown()).optional(),
});
