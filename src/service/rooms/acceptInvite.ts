import { projectMember, type MemberView } from '../../api/roomViews.js';
import { HelixError } from '../../domain/errors.js';
import { sha256Hex } from '../../domain/hashing.js';
import { isInviteToken, type RoomMemberRecord } from '../../domain/rooms.js';
import { requireRoomFeatureFor } from './access.js';
import type { RoomDeps } from './deps.js';

export interface InviteAccepted {
  readonly room_id: string;
  readonly member: MemberView;
  /** The consent the new member must now accept explicitly before binding runs (acceptConsent). */
  readonly consent: { readonly version: number; readonly text: string };
}

const inviteNotFound = (): HelixError =>
  new HelixError('not_found', {}, 'The invite was not found, has expired or was already used.');

/**
 * Console/CLI (D-09): the signed-in account uses an invite once, before it expires, and becomes a
 * member with the invite's role. Joining accepts no consent: the member accepts the room's current
 * version explicitly (acceptConsent.ts) before it can bind runs. A current member is refused, and
 * its invite stays unused (the transaction rolls back).
 */
export const acceptInvite = async (deps: RoomDeps, accountId: string, token: string): Promise<InviteAccepted> => {
  await requireRoomFeatureFor(deps, accountId);
  if (!isInviteToken(token)) throw inviteNotFound();
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const invite = await uow.rooms.consumeInvite(sha256Hex(token), accountId, now);
    if (invite === undefined) throw inviteNotFound();
    const room = await uow.rooms.getRoom(invite.roomId);
    if (room === undefined) throw inviteNotFound();
    const consent = await uow.rooms.getConsentVersion(room.roomId, room.consentVersion);
    if (consent === undefined) throw inviteNotFound();
    const member: RoomMemberRecord = {
      roomId: room.roomId,
      accountId,
      role: invite.role,
      acceptedConsentVersion: null,
      consentReceiptRef: null,
      joinedAt: now,
      removedAt: null,
    };
    // A current member is refused in the same statement that seats, so two joins at once seat once.
    if (!(await uow.rooms.seatMember(member))) throw new HelixError('invalid_request', alreadyMember);
    return {
      room_id: room.roomId,
      member: projectMember(member),
      consent: { version: consent.version, text: consent.text },
    };
  });
};

const alreadyMember = { issues: [{ path: 'token', message: 'this account is already a member of the room' }] };
