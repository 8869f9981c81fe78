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
 * Nothing is executed or stored. `roomId` is the path's room; the MCP form (MRT-10) has no path, so
 * it passes undefined and `body.room_id` is required. When both are given they must name the same room.
 */
export const requestCommand = async (
  deps: RoomDeps,
  principal: Principal,
  roomId: string | undefined,
  body: unknown,
): Promise<never> => {
  const caller = await admitCaller(deps, principal, 'room.command', 'feature_required');
  const request = parseInput(RoomCommandRequestSchema, body);
  const target = roomId ?? request.room_id;
  if (target === undefined)
    throw new HelixError('invalid_request', { issues: [{ path: 'room_id', message: 'required' }] });
  if (request.room_id !== undefined && request.room_id !== target) throw roomNotFound();
  await loadCallerRoom(deps.store.read.rooms, target, caller);
  throw new HelixError('command_execution_not_enabled', { execution_enabled: false });
};
