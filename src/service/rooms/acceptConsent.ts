import { projectMember, type MemberView } from '../../api/roomViews.js';
import { HelixError } from '../../domain/errors.js';
import { loadMemberRoom, requireRoomFeatureFor, roomNotFound } from './access.js';
import type { RoomDeps } from './deps.js';
import { newConsentReceiptRef } from './ids.js';

/**
 * Console/CLI (D-09): a member accepts the room's current consent version explicitly and receives
 * a fresh consent receipt (PRE-01). Naming the version makes the acceptance exact: a version the
 * owner has since replaced is refused with `room_consent_required`, so the member reads the new text first.
 */
export const acceptConsent = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
  version: number,
): Promise<MemberView> => {
  await requireRoomFeatureFor(deps, accountId);
  return deps.store.transaction(async (uow) => {
    const { room } = await loadMemberRoom(uow.rooms, roomId, accountId, null);
    if (version !== room.consentVersion)
      throw new HelixError('room_consent_required', {}, "That is not the room's current consent version.");
    // The row is written back whole: lock it, so a removal committed meanwhile is not undone.
    const member = await uow.rooms.lockCurrentMember(roomId, accountId);
    if (member === undefined) throw roomNotFound();
    const accepted = { ...member, acceptedConsentVersion: version, consentReceiptRef: newConsentReceiptRef() };
    await uow.rooms.saveMember(accepted);
    return projectMember(accepted);
  });
};
