import type { SourceListReceipt } from '../../api/roomSourceViews.js';
import { loadRoomAsOwner, requireRoomFeatureFor } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import { roomSourceList } from './listSources.js';

/**
 * The console's source manager lists a room's sources (SRC-06, SRC-09: `GET /api/agi/realtime/
 * rooms/{roomId}/source-bindings` and the room page): the signed-in room owner only, never a
 * credential. Another account's room, or one the account is not owner of, is refused as the
 * console's other owner operations are.
 */
export const listOwnedSources = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
): Promise<SourceListReceipt> => {
  await requireRoomFeatureFor(deps, accountId);
  await loadRoomAsOwner(deps.store.read.rooms, roomId, accountId);
  return roomSourceList(deps, roomId);
};
