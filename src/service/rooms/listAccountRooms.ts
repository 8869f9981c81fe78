import { projectRoom, type RoomView } from '../../api/roomViews.js';
import { isCurrentMember } from '../../domain/rooms.js';
import { requireRoomFeatureFor } from './access.js';
import type { RoomDeps } from './deps.js';

/**
 * Console/CLI (D-09): the rooms an account is a current member of, in every tenant. The console
 * has no principal, so no tenant narrows the list: the signed-in account is the member, whichever
 * tenant its agent created the room in. The same policy lock as listing through the API (SLR-11).
 */
export const listAccountRooms = async (deps: RoomDeps, accountId: string): Promise<RoomView[]> => {
  await requireRoomFeatureFor(deps, accountId);
  const rooms = await deps.store.read.rooms.listRoomsOfMember(accountId, null);
  const views: RoomView[] = [];
  for (const room of rooms) {
    const member = await deps.store.read.rooms.getMember(room.roomId, accountId);
    if (isCurrentMember(member)) views.push(projectRoom(room, member));
  }
  return views;
};
