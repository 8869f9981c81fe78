import { type InviteView, projectInvite } from '../../api/roomViews.js';
import { INVITE_LIST_MAX } from '../../domain/rooms.js';
import { loadRoomAsOwner, requireRoomFeatureFor } from './access.js';
import type { RoomDeps } from './deps.js';

/**
 * Console/CLI (D-09): an owner lists the room's invites, newest first (at most INVITE_LIST_MAX),
 * each with its status (pending, used, expired, revoked), who issued it and who used it. Never
 * the token nor its hash: a listed invite cannot be used, only revoked (revokeInvite.ts).
 */
export const listInvites = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
): Promise<{ readonly room_id: string; readonly invites: InviteView[] }> => {
  await requireRoomFeatureFor(deps, accountId);
  await loadRoomAsOwner(deps.store.read.rooms, roomId, accountId);
  const now = deps.now();
  const invites = await deps.store.read.rooms.listInvites(roomId, INVITE_LIST_MAX);
  return { room_id: roomId, invites: invites.map((invite) => projectInvite(invite, now)) };
};
