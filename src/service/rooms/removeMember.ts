import { projectMember, type MemberView } from '../../api/roomViews.js';
import { creatorStaysOwner, loadMemberRoom, loadRoomAsOwner, memberNotFound } from './access.js';
import { withdrawMemberEmbodiment } from '../embodiment/queueStop.js';
import type { RoomDeps } from './deps.js';
import { endOwnerAuthority, type OwnerAuthorityEnded } from './endOwnerAuthority.js';

/**
 * Console/CLI (D-09): an owner removes a member, or a member leaves. The row stays, marked
 * removed; the member's active run bindings in the room are revoked in the same transaction, so
 * they stop authorizing at once (BRE-04), and their player leases and workflows end with them
 * (MC-12), and what it created as an owner (unused invites, sources) is revoked with it
 * (endOwnerAuthority.ts). Like a withdrawal, removal is cleanup and stays available under the
 * policy lock. The creator stays a member.
 */
export const removeMember = async (
  deps: RoomDeps,
  actingAccountId: string,
  roomId: string,
  memberAccountId: string,
): Promise<{ readonly member: MemberView; readonly revoked_bindings: number } & OwnerAuthorityEnded> => {
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const { room } =
      actingAccountId === memberAccountId
        ? await loadMemberRoom(uow.rooms, roomId, actingAccountId, null)
        : await loadRoomAsOwner(uow.rooms, roomId, actingAccountId);
    // Locked: of two concurrent removals (or a removal and a consent or role change) the later
    // one sees the earlier one's commit, so a removal is never answered twice nor overwritten.
    const member = await uow.rooms.lockCurrentMember(roomId, memberAccountId);
    if (member === undefined) throw memberNotFound();
    if (memberAccountId === room.ownerAccountId) throw creatorStaysOwner();
    const removed = { ...member, removedAt: now };
    await uow.rooms.saveMember(removed);
    const revoked = await uow.rooms.revokeRunBindingsOfMember(roomId, memberAccountId, now);
    await withdrawMemberEmbodiment(uow, roomId, memberAccountId, now);
    const ended = await endOwnerAuthority(uow, roomId, memberAccountId, now);
    return { member: projectMember(removed), revoked_bindings: revoked, ...ended };
  });
};
