import {
  BindRunRequestSchema,
  ClaimChatBindingRequestSchema,
  CreateRoomRequestSchema,
  RoomCommandRequestSchema,
} from '../../api/roomSchemas.js';
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
} from '../../api/roomOutputSchemas.js';
import { CreateSourceRequestSchema } from '../../api/roomSourceSchemas.js';
import { DeviceCheckReceiptSchema } from '../../api/deviceCheckViews.js';
import type { OperationDoc } from './operations.js';

/**
 * The room facade's contract entries (src/http/rest/roomRoutes.ts, docs/rooms.md#rest-endpoints),
 * keyed like OPERATION_DOCS. Errors are `helix.shared_live_room.error.v1` bodies (the `rooms` tag).
 */
export const ROOM_OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = {
  'GET /api/v1/rooms': {
    operationId: 'listRooms',
    summary: 'List the rooms the linked account is a current member of',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.list',
    success: { status: 200, description: 'The visible rooms.', schema: RoomListReceiptSchema },
  },
  'POST /api/v1/rooms': {
    operationId: 'createRoom',
    summary: 'Create a room owned by the linked account',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.create',
    idempotent: true,
    body: CreateRoomRequestSchema,
    success: {
      status: 201,
      description: 'The room was created (or the creation replayed); the caller is its owner member.',
      schema: RoomCreateReceiptSchema,
      location: true,
    },
  },
  'POST /api/v1/rooms/run-bindings': {
    operationId: 'bindRunToRoom',
    summary: 'Bind one owned run to one room (201 new, 200 the existing binding)',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.bind_run',
    body: BindRunRequestSchema,
    errors: [409],
    success: { status: 201, description: 'The binding (200 when it already existed).', schema: RunBindReceiptSchema },
  },
  'DELETE /api/v1/rooms/run-bindings/:binding_ref': {
    operationId: 'unbindRunFromRoom',
    summary: 'Withdraw one run-room binding by its opaque ref (no body, no query)',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.unbind_run',
    success: { status: 200, description: '`revoked`, then `already_revoked`.', schema: RunUnbindReceiptSchema },
  },
  'POST /api/v1/rooms/chat-bindings/claim': {
    operationId: 'claimChatBinding',
    summary: 'Consume a browser-issued chat claim handle for an owned run',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.claim_chat',
    body: ClaimChatBindingRequestSchema,
    success: {
      status: 201,
      description:
        'The handle was consumed once for this run (OBS-05): the opaque run-chat `binding_ref`, an optional `snapshot_ref` and bounded counts, never a chat id (OBS-06). An unknown, used, expired or other account’s handle is `chat_claim_not_found` (404); a run already bound to a chat is `chat_binding_conflict` (409).',
      schema: ChatClaimReceiptSchema,
    },
    errors: [409],
  },
  'DELETE /api/v1/rooms/chat-bindings/:binding_ref': {
    operationId: 'unbindChatBinding',
    summary: 'Withdraw one run-chat binding by its opaque ref (no body, no query)',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.unbind_chat',
    success: {
      status: 200,
      description:
        '`revoked`, then `already_revoked` (WD-03). Also after the account policy locks the room feature (WD-05). The browser’s observer lane reads `revoked` at once, and the run can no longer write the chat’s assistant message; a fresh claim from the browser gets a new ref (WD-08).',
      schema: ChatUnbindReceiptSchema,
    },
  },
  'GET /api/v1/rooms/:room_id': {
    operationId: 'inspectRoom',
    summary: 'Inspect one room the linked account is a current member of',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.inspect',
    success: { status: 200, description: 'The room and the caller’s membership.', schema: RoomInspectReceiptSchema },
  },
  'POST /api/v1/rooms/:room_id/commands': {
    operationId: 'requestRoomCommand',
    summary: 'Request a room command: always 501 command_execution_not_enabled, nothing is executed',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.command',
    body: RoomCommandRequestSchema,
    errors: [501],
  },
  'GET /api/v1/rooms/:room_id/sources': {
    operationId: 'listRoomSources',
    summary: 'List the room’s sources, bounded and without credentials (room owner only)',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.source_list',
    success: { status: 200, description: 'The room’s source projections.', schema: SourceListReceiptSchema },
  },
  'POST /api/v1/rooms/:room_id/sources': {
    operationId: 'createRoomSource',
    summary: 'Create a read-only room source and its show-once credential-delivery handle (room owner only)',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'room.source_create',
    idempotent: true,
    body: CreateSourceRequestSchema,
    success: {
      status: 201,
      description:
        'The source and `credential_delivery` (claim handle, claim URL, expiry); never the bearer. A replay answers a fresh handle until the delivery is claimed, then `credential_delivery: null`.',
      schema: SourceCreateReceiptSchema,
    },
  },
  'GET /api/v1/rooms/device-check': {
    operationId: 'deviceCheckRooms',
    summary: 'Device Check: whether the environment sources of every room of the caller can deliver fresh evidence now',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'environment.device_check',
    success: {
      status: 200,
      description: 'Each room’s sources, check by check; never a credential.',
      schema: DeviceCheckReceiptSchema,
    },
  },
  'GET /api/v1/rooms/:room_id/device-check': {
    operationId: 'deviceCheckRoom',
    summary: 'Device Check of one room the caller is a current member of',
    tag: 'rooms',
    authentication: 'bearer',
    scope: 'environment.device_check',
    success: {
      status: 200,
      description: 'The room’s sources, check by check; never a credential.',
      schema: DeviceCheckReceiptSchema,
    },
  },
};
