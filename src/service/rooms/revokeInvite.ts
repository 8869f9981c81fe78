import { HelixError } from '../../domain/errors.js';
import { isInviteRef, type RevocationStatus } from '../../domain/rooms.js';
import { loadRoomAsOwner } from './access.js';
import type { RoomDeps } from './deps.js';

export const inviteNotFound = (): HelixError => new HelixError('not_found', {}, 'The invite was not found.');

/**
 * Console/CLI (D-09): an owner revokes an unused invite of its room by reference, for good; its
 * link then reads like an unknown one. Revoking twice answers `already_revoked` (as withdrawals do,
 * WD-03); a used invite has nothing left to revoke (`invalid_request`: remove the member instead).
 * Like removal, revocation narrows access, so it stays available under the policy lock. A
 * malformed ref, another room's invite and a missing one are all not found.
 */
export const revokeInvite = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
  inviteRef: string,
): Promise<{ readonly invite_ref: string; readonly revocation_status: RevocationStatus }> => {
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    await loadRoomAsOwner(uow.rooms, roomId, accountId);
    if (!isInviteRef(inviteRef)) throw inviteNotFound();
    const outcome = await uow.rooms.revokeInvite(roomId, inviteRef, now);
    if (outcome === 'not_found') throw inviteNotFound();
    if (outcome === 'used')
      throw new HelixError('invalid_request', {
        issues: [{ path: 'invite_ref', message: 'the invite was already used; remove the member instead' }],
      });
    return { invite_ref: inviteRef, revocation_status: outcome };
  });
};
