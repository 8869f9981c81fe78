import { z } from 'zod';
import {
  ChatClaimReceiptSchema,
  ChatUnbindReceiptSchema,
  RoomCreateReceiptSchema,
  RoomInspectReceiptSchema,
  RoomListReceiptSchema,
  RunBindReceiptSchema,
  RunUnbindReceiptSchema,
  SourceCreateReceiptSchema,
  SourceListReceiptSchema,
} from '../../../api/roomOutputSchemas.js';
import { CreateSourceRequestSchema } from '../../../api/roomSourceSchemas.js';
import {
  BindRunRequestSchema,
  ClaimChatBindingRequestSchema,
  CreateRoomRequestSchema,
  RoomCommandRequestSchema,
  RoomIdSchema,
} from '../../../api/roomSchemas.js';
import { IdempotencyKeySchema } from '../../../api/schemas.js';
import { HelixError } from '../../../domain/errors.js';
import { RUN_CHAT_BINDING_REF_PATTERN, RUN_ROOM_BINDING_REF_PATTERN } from '../../../domain/rooms.js';
import { bindRun } from '../../../service/rooms/bindRun.js';
import { claimChatBinding } from '../../../service/rooms/claimChatBinding.js';
import { createRoom } from '../../../service/rooms/createRoom.js';
import { inspectRoom } from '../../../service/rooms/inspectRoom.js';
import { listRooms } from '../../../service/rooms/listRooms.js';
import { requestCommand } from '../../../service/rooms/requestCommand.js';
import { unbindChat } from '../../../service/rooms/unbindChat.js';
import { unbindRun } from '../../../service/rooms/unbindRun.js';
import { createSource } from '../../../service/roomSources/createSource.js';
import { listSources } from '../../../service/roomSources/listSources.js';
import { roomsOf, type ToolDefinition } from '../toolDefinition.js';

/** The tool name whose `request.claim_handle` is the one place a chat claim handle is admitted (MRT-12). */
export const CHAT_CLAIM_TOOL = 'helix_room_claim_chat_binding';

/**
 * A required top-level argument. The catalog already refused a value of the wrong JSON type, so
 * anything else is a missing argument: `invalid_request`, never a misleading "not found".
 */
const requiredString = (args: Readonly<Record<string, unknown>>, name: string): string => {
  const value = args[name];
  if (typeof value === 'string') return value;
  throw new HelixError('invalid_request', { issues: [{ path: name, message: 'required' }] });
};

const key = IdempotencyKeySchema.describe(
  'Caller-chosen key, 8-200 printable characters; reuse it only to retry the same request (MCP-04: never the JSON-RPC id).',
);
const roomId = RoomIdSchema.describe('The room_id from helix_room_list or helix_room_create.');

/**
 * The Shared Live Room tools of `/mcp` (docs/spec/shared-live-room-requirements.md §11, MRT-01..07
 * and MRT-10), each calling the same use case as its REST route. Scopes and the `shared_live_room`
 * policy lock are enforced by the use cases; the two withdrawals work after the lock (MRT-11).
 * The room-source tools (MRT-08, MRT-09) call src/service/roomSources/.
 */
export const ROOM_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'helix_room_list',
    title: 'List your Helix rooms',
    description: 'The shared live rooms your account is a current member of, with your role and consent state.',
    operation: 'room.list',
    mutation: false,
    input: z.strictObject({}),
    output: RoomListReceiptSchema,
    call: (s, p) => listRooms(roomsOf(s), p),
  },
  {
    name: 'helix_room_inspect',
    title: 'Inspect a Helix room',
    description: 'One room you are a current member of; any other room reads as not found.',
    operation: 'room.inspect',
    mutation: false,
    input: z.strictObject({ room_id: roomId }),
    output: RoomInspectReceiptSchema,
    call: (s, p, a) => inspectRoom(roomsOf(s), p, requiredString(a, 'room_id')),
  },
  {
    name: 'helix_room_create',
    title: 'Create a Helix room',
    description:
      'Create a shared live room owned by your account (you join as owner and accept its first consent version). Idempotent by idempotency_key.',
    operation: 'room.create',
    mutation: true,
    input: z.strictObject({ idempotency_key: key, request: CreateRoomRequestSchema }),
    output: RoomCreateReceiptSchema,
    call: (s, p, a) =>
      createRoom(roomsOf(s), p, typeof a.idempotency_key === 'string' ? a.idempotency_key : undefined, a.request),
  },
  {
    name: 'helix_room_bind_run',
    title: 'Bind a run to a Helix room',
    description:
      'Bind one of your active runs to a room where you are an owner or member and accepted the current consent. A run has at most one active room binding; retrying the same binding returns it.',
    operation: 'room.bind_run',
    mutation: true,
    input: z.strictObject({ request: BindRunRequestSchema }),
    output: RunBindReceiptSchema,
    call: (s, p, a) => bindRun(roomsOf(s), p, a.request),
  },
  {
    name: CHAT_CLAIM_TOOL,
    title: 'Claim a browser chat binding for a run',
    description:
      'Consume a one-time chat claim handle (hlxclm_…) issued by a signed-in Helix browser session, for one of your active runs of the same linked account. The handle is admitted only here and works once. The receipt holds only the opaque binding_ref (rcb_…), an optional snapshot_ref and counts; the verified answer of the run later becomes the chat’s one assistant message.',
    operation: 'room.claim_chat',
    mutation: true,
    input: z.strictObject({ request: ClaimChatBindingRequestSchema }),
    output: ChatClaimReceiptSchema,
    call: (s, p, a) => claimChatBinding(roomsOf(s), p, a.request),
  },
  {
    name: 'helix_room_unbind_run',
    title: 'Withdraw a run-room binding',
    description:
      'Revoke one of your run-room bindings by its binding_ref (rrb_…). Idempotent: revoked, then already_revoked. Works even after the room feature is locked.',
    operation: 'room.unbind_run',
    mutation: true,
    destructive: true,
    input: z.strictObject({
      binding_ref: z.string().regex(RUN_ROOM_BINDING_REF_PATTERN).describe('The binding_ref of helix_room_bind_run.'),
    }),
    output: RunUnbindReceiptSchema,
    call: (s, p, a) => unbindRun(roomsOf(s), p, requiredString(a, 'binding_ref')),
  },
  {
    name: 'helix_room_unbind_chat',
    title: 'Withdraw a run-chat binding',
    description:
      'Revoke one of your claimed chat bindings by its binding_ref (rcb_…). Idempotent: revoked, then already_revoked. Works even after the room feature is locked.',
    operation: 'room.unbind_chat',
    mutation: true,
    destructive: true,
    input: z.strictObject({
      binding_ref: z
        .string()
        .regex(RUN_CHAT_BINDING_REF_PATTERN)
        .describe('The binding_ref of a claimed chat binding.'),
    }),
    output: ChatUnbindReceiptSchema,
    call: (s, p, a) => unbindChat(roomsOf(s), p, requiredString(a, 'binding_ref')),
  },
  {
    name: 'helix_room_command_request',
    title: 'Request a room command (disabled)',
    description:
      'Room command execution is disabled: every request is refused with command_execution_not_enabled (execution_enabled: false). Nothing is executed or stored.',
    operation: 'room.command',
    // Published as a write (readOnlyHint false): a client must not learn to auto-approve command requests.
    mutation: true,
    input: z.strictObject({ request: RoomCommandRequestSchema.extend({ room_id: RoomIdSchema }) }),
    // MRT-10: it never succeeds, so its outputSchema is the error body alone.
    call: (s, p, a) => requestCommand(roomsOf(s), p, undefined, a.request),
  },
  {
    name: 'helix_room_source_list',
    title: 'List a room’s sources',
    description:
      'The read-only environment sources of a room you own: adapter, world, status and credential state, never a credential.',
    operation: 'room.source_list',
    mutation: false,
    input: z.strictObject({ room_id: roomId }),
    output: SourceListReceiptSchema,
    call: (s, p, a) => listSources(roomsOf(s), p, requiredString(a, 'room_id')),
  },
  {
    name: 'helix_room_source_create',
    title: 'Create a room source',
    description:
      'Create a read-only environment source (e.g. a Minecraft world) for a room you own. Returns a short-lived credential_delivery claim URL for the signed-in developer owner to open in the Helix console; the source bearer is never returned here. Idempotent by idempotency_key.',
    operation: 'room.source_create',
    mutation: true,
    input: z.strictObject({ room_id: roomId, idempotency_key: key, request: CreateSourceRequestSchema }),
    output: SourceCreateReceiptSchema,
    call: (s, p, a) =>
      createSource(
        roomsOf(s),
        p,
        requiredString(a, 'room_id'),
        typeof a.idempotency_key === 'string' ? a.idempotency_key : undefined,
        a.request,
      ),
  },
];
