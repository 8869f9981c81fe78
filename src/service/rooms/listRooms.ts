import type { Principal } from '../../auth/principal.js';
import { projectRoom, roomListReceipt, type RoomListReceipt, type RoomView } from '../../api/roomViews.js';
import { isCurrentMember } from '../../domain/rooms.js';
import { admitCaller } from './access.js';
import type { RoomDeps } from './deps.js';
import type { ServiceResult } from '../result.js';

/** GET /api/v1/rooms (RREST-01, MRT-01): only rooms of the caller's tenant where its account is a current member. */
export const listRooms = async (deps: RoomDeps, principal: Principal): Promise<ServiceResult<RoomListReceipt>> => {
  const caller = await admitCaller(deps, principal, 'room.list', 'feature_required');
  const rooms = await deps.store.read.rooms.listRoomsOfMember(caller.accountId, caller.tenantHash);
  const views: RoomView[] = [];
  for (const room of rooms) {
    const member = await deps.store.read.rooms.getMember(room.roomId, caller.accountId);
    if (isCurrentMember(member)) views.push(projectRoom(room, member));
  }
  return { status: 200, body: roomListReceipt(views), replayed: false };
};
