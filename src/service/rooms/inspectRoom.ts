import type { Principal } from '../../auth/principal.js';
import { projectRoom, roomReceipt, type RoomReceipt } from '../../api/roomViews.js';
import { admitCaller, loadCallerRoom } from './access.js';
import type { RoomDeps } from './deps.js';
import type { ServiceResult } from '../result.js';

/**
 * GET /api/v1/rooms/{room_id} (RREST-03, MRT-02): one exact room after the policy and membership
 * checks, re-read on every call, so a removed member loses sight of it at once.
 */
export const inspectRoom = async (
  deps: RoomDeps,
  principal: Principal,
  roomId: string,
): Promise<ServiceResult<RoomReceipt>> => {
  const caller = await admitCaller(deps, principal, 'room.inspect', 'feature_required');
  const { room, member } = await loadCallerRoom(deps.store.read.rooms, roomId, caller);
  return { status: 200, body: roomReceipt('inspect', projectRoom(room, member)), replayed: false };
};
