import { z } from 'zod';
import { RUN_ID_PATTERN } from '../domain/run.js';
import {
  CHAT_CLAIM_HANDLE_PATTERN,
  consentTextProblem,
  ROOM_ID_PATTERN,
  ROOM_ROLES,
  roomTitleProblem,
} from '../domain/rooms.js';

/**
 * Room request bodies (docs/spec/shared-live-room-requirements.md §22 names them: create `{title}`,
 * bind `{room_id, run_id}`, command `{room_id, command}`), written once for REST, MCP and the
 * console. SLR-05: every object is strict, an unknown field is refused.
 */
const checked = (problem: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const found = problem(value);
    if (found !== undefined) ctx.addIssue({ code: 'custom', message: found });
  });

/** 1-200 characters once trimmed, one line, never credential-shaped (SLR-08); stored trimmed. */
export const RoomTitleSchema = checked(roomTitleProblem).transform((title) => title.trim());

/** RREST-12: `room_` and 24 hex digits, so the literal segments `run-bindings`/`chat-bindings` never match. */
export const RoomIdSchema = z.string().regex(ROOM_ID_PATTERN, 'must be a room id');

export const CreateRoomRequestSchema = z.strictObject({ title: RoomTitleSchema });
export type CreateRoomRequest = z.output<typeof CreateRoomRequestSchema>;

const RunIdSchema = z.string().regex(RUN_ID_PATTERN, 'must match run_[A-Za-z0-9._:-]{8,200}');

export const BindRunRequestSchema = z.strictObject({ room_id: RoomIdSchema, run_id: RunIdSchema });
export type BindRunRequest = z.output<typeof BindRunRequestSchema>;

/** RREST-06 / MRT-05: the browser-issued handle (never echoed: a mismatch says only "must be a claim handle") and the owned run. */
export const ClaimChatBindingRequestSchema = z.strictObject({
  claim_handle: z.string().regex(CHAT_CLAIM_HANDLE_PATTERN, 'must be a chat claim handle'),
  run_id: RunIdSchema,
});
export type ClaimChatBindingRequest = z.output<typeof ClaimChatBindingRequestSchema>;

/** RREST-10 / MRT-10: accepted only to be refused; bounded so a refusal never stores or echoes much. */
export const RoomCommandRequestSchema = z.strictObject({
  room_id: RoomIdSchema.optional(),
  command: z.string().min(1).max(2_000),
});

export const RoomRoleSchema = z.enum(ROOM_ROLES);

/** Consent text an owner publishes (D-09): up to 4,000 characters, stored trimmed. */
export const ConsentTextSchema = checked(consentTextProblem).transform((text) => text.trim());
