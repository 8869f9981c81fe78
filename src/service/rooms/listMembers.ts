import { projectMember, type MemberView } from '../../api/roomViews.js';
import { loadMemberRoom, requireRoomFeatureFor } from './access.js';
import type { RoomDeps } from './deps.js';

/** Console/CLI (D-09): a current member sees the room's members; removed members keep their rows and show `removed_at`. */
export const listMembers = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
): Promise<{ readonly room_id: string; readonly consent_version: number; readonly members: MemberView[] }> => {
  await requireRoomFeatureFor(deps, accountId);
  const { room } = await loadMemberRoom(deps.store.read.rooms, roomId, accountId, null);
  const members = await deps.store.read.rooms.listMembers(roomId);
  return { room_id: roomId, consent_version: room.consentVersion, members: members.map(projectMember) };
};
