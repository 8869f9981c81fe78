import { RoomRoleSchema } from '../../api/roomSchemas.js';
import { projectMember, type MemberView } from '../../api/roomViews.js';
import { roleMayBindRuns } from '../../domain/rooms.js';
import { parseInput } from '../validate.js';
import { creatorStaysOwner, loadRoomAsOwner, memberNotFound, requireRoomFeatureFor } from './access.js';
import { withdrawMemberEmbodiment } from '../embodiment/queueStop.js';
import type { RoomDeps } from './deps.js';
import { endOwnerAuthority, type OwnerAuthorityEnded } from './endOwnerAuthority.js';

/**
 * Console/CLI (D-09): an owner sets a member's role. A role that may not bind runs (observer)
 * revokes the member's active run bindings in the room at once: they were authorized by a role
 * the member no longer holds (BRE-04); it also drops their player leases and stops their
 * workflows (MC-12). An owner set to any other role loses what it created as an owner: its unused
 * invites and its sources are revoked in the same transaction (endOwnerAuthority.ts). The creator
 * stays an owner.
 */
export const setMemberRole = async (
  deps: RoomDeps,
  actingAccountId: string,
  roomId: string,
  memberAccountId: string,
  roleName: string,
): Promise<{ readonly member: MemberView; readonly revoked_bindings: number } & OwnerAuthorityEnded> => {
  await requireRoomFeatureFor(deps, actingAccountId);
  const role = parseInput(RoomRoleSchema, roleName);
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const { room } = await loadRoomAsOwner(uow.rooms, roomId, actingAccountId);
    // Locked, so a concurrent removal either lands first (not found here) or waits for this change.
    const member = await uow.rooms.lockCurrentMember(roomId, memberAccountId);
    if (member === undefined) throw memberNotFound();
    if (memberAccountId === room.ownerAccountId && role !== 'owner') throw creatorStaysOwner();
    const changed = { ...member, role };
    await uow.rooms.saveMember(changed);
    const revoked = roleMayBindRuns(role) ? 0 : await uow.rooms.revokeRunBindingsOfMember(roomId, memberAccountId, now);
    if (!roleMayBindRuns(role)) await withdrawMemberEmbodiment(uow, roomId, memberAccountId, now);
    const ended =
      role === 'owner'
        ? { revoked_invites: 0, revoked_sources: 0 }
        : await endOwnerAuthority(uow, roomId, memberAccountId, now);
    return { member: projectMember(changed), revoked_bindings: revoked, ...ended };
  });
};
