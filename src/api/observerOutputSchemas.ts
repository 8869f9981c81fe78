import { z } from 'zod';
import { OBSERVER_BINDING_STATUSES } from '../domain/chats.js';
import { OBSERVER_SCHEMAS } from './chatViews.js';
import { FalseFlags } from './outputSchemas.js';

/**
 * Output contract of the browser observer lane (OBS-03, OBS-11, OBS-12; ./chatViews.ts), for the
 * OpenAPI document. Loose like the other output schemas; test/chats.http.test.ts checks the answers
 * against them.
 */
export const ObserverBindingViewSchema = z.looseObject({
  schema: z.literal(OBSERVER_SCHEMAS.binding),
  binding_ref: z.string(),
  binding_status: z.enum(OBSERVER_BINDING_STATUSES),
  chat_session_id: z.string(),
  expires_at: z.string().nullable(),
  claimed_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  snapshot_ref: z.string().nullable(),
  snapshot_message_count: z.number().int(),
  snapshot_char_count: z.number().int(),
  ...FalseFlags,
});

export const IssuedObserverBindingSchema = ObserverBindingViewSchema.extend({
  claim_handle: z.string(),
  claim_handle_shown_once: z.literal(true),
});

export const ObserverEventPageSchema = z.looseObject({
  schema: z.literal(OBSERVER_SCHEMAS.events),
  binding_ref: z.string(),
  binding_status: z.enum(OBSERVER_BINDING_STATUSES),
  events: z.array(
    z.looseObject({
      seq: z.number().int(),
      kind: z.string(),
      run_version: z.number().int(),
      data: z.record(z.string(), z.unknown()),
      created_at: z.string().nullable(),
    }),
  ),
  next_after_seq: z.number().int(),
  has_more: z.boolean(),
  terminal_message: z.looseObject({ message_id: z.string(), appended: z.boolean() }).nullable(),
  ...FalseFlags,
});

export const ObserverDisconnectReceiptSchema = z.looseObject({
  schema: z.literal(OBSERVER_SCHEMAS.disconnect),
  binding_ref: z.string(),
  binding_status: z.literal('revoked'),
  revocation_status: z.enum(['revoked', 'already_revoked']),
  ...FalseFlags,
});
