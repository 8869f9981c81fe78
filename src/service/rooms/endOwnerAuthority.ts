import type { UnitOfWork } from '../../store/port.js';
import { endSourceForGood } from '../roomSources/revokeSource.js';

/** What ended with an owner's authority in one room. */
export interface OwnerAuthorityEnded {
  readonly revoked_invites: number;
  readonly revoked_sources: number;
}

/**
 * An owner who is removed, leaves or is demoted no longer speaks for the room, so what it created
 * as an owner ends in the same transaction as the membership change (SRC-06: "membership changes
 * remain enforceable boundaries"): its unused invites are revoked (D-09: an invite carries its
 * issuer's authority; a removed owner's `owner` invite must not seat anyone, least of all the
 * removed owner), and its sources are revoked with their admissions (a source feeds every member's
 * bound runs on its creator's word). Nothing happens for a member or an observer: they created none.
 */
export const endOwnerAuthority = async (
  uow: UnitOfWork,
  roomId: string,
  accountId: string,
  now: number,
): Promise<OwnerAuthorityEnded> => {
  const revokedInvites = await uow.rooms.revokeInvitesOf(roomId, accountId, now);
  let revokedSources = 0;
  for (const source of await uow.roomSources.listActiveSourcesOf(roomId, accountId))
    if (await endSourceForGood(uow, source.sourceId, now)) revokedSources++;
  return { revoked_invites: revokedInvites, revoked_sources: revokedSources };
};
