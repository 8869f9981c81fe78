import { z } from 'zod';
import { DeviceCheckReceiptSchema } from '../../../api/deviceCheckViews.js';
import { RoomIdSchema } from '../../../api/roomSchemas.js';
import { deviceCheck } from '../../../service/roomSources/deviceCheck.js';
import { roomsOf, type ToolDefinition } from '../toolDefinition.js';

/**
 * `helix_environment_device_check` (DC-02, DC-04, D-03): the one tool of `/mcp/device-check`, and
 * part of the full `/mcp` catalog. Read-only, `helix.rooms.read` only.
 */
export const DEVICE_CHECK_TOOL: ToolDefinition = {
  name: 'helix_environment_device_check',
  title: 'Check your rooms’ environment devices',
  description:
    'Whether the environment sources (e.g. a Minecraft connector) of your rooms can deliver fresh evidence now: credential, manifest admission, heartbeat, game connection and observation freshness, check by check. Give room_id to check one room. Read-only; never returns a credential or observation content.',
  operation: 'environment.device_check',
  mutation: false,
  input: z.strictObject({
    room_id: RoomIdSchema.optional().describe(
      'Check only this room (from helix_room_list); all your rooms when absent.',
    ),
  }),
  output: DeviceCheckReceiptSchema,
  call: (s, p, a) => deviceCheck(roomsOf(s), p, a.room_id),
};
