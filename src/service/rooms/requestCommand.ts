import type { Principal } from '../../auth/principal.js';
import { RoomCommandRequestSchema } from '../../api/roomSchemas.js';
import { HelixError } from '../../domain/errors.js';
import { parseInput } from '../validate.js';
import { admitCaller, loadCallerRoom, roomNotFound } from './access.js';
import type { RoomDeps } from './deps.js';

/**
 * POST /api/v1/rooms/{room_id}/commands (RREST-10, MRT-10): command execution "remains disabled".
 * After the scope, policy, body and membership checks (so a stranger still learns nothing about
 * the room) it always refuses with `command_execution_not_enabled` (501, execution_enabled false).
 * Nothing is executed or stored. `body.room_id`, when given (the MCP form), must name the same room.
 */
export const requestCommand = async (
  deps: RoomDeps,
  principal: Principal,
  roomId: string,
  body: unknown,
): Promise<never> => {
  const caller = await admitCaller(deps, principal, 'room.command', 'feature_required');
  const request = parseInput(RoomCommandRequestSchema, body);
  if (request.room_id !== undefined && request.room_id !== roomId) throw roomNotFound();
  await loadCallerRoom(deps.store.read.rooms, roomId, caller);
  throw new HelixError('command_execution_not_enabled', { execution_enabled: false });
};
