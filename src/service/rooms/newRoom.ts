import {
  INITIAL_CONSENT_TEXT,
  INITIAL_CONSENT_VERSION,
  type RoomMemberRecord,
  type RoomRecord,
} from '../../domain/rooms.js';
import type { UnitOfWork } from '../../store/port.js';
import { newConsentReceiptRef, newRoomId } from './ids.js';

export interface NewRoom {
  readonly title: string;
  readonly ownerAccountId: string;
  readonly tenantHash: string;
  /** The creating agent owner; null when the operator creates the room for an account. */
  readonly ownerHash: string | null;
  readonly now: number;
}

/**
 * Writes a room in the caller's transaction (D-09): the room at consent version 1, that version's
 * text, and the creator as its owner member, already holding a consent receipt for version 1.
 */
export const insertNewRoom = async (
  uow: UnitOfWork,
  init: NewRoom,
): Promise<{ room: RoomRecord; member: RoomMemberRecord }> => {
  const room: RoomRecord = {
    roomId: newRoomId(),
    title: init.title,
    status: 'active',
    ownerAccountId: init.ownerAccountId,
    tenantHash: init.tenantHash,
    ownerHash: init.ownerHash,
    consentVersion: INITIAL_CONSENT_VERSION,
    createdAt: init.now,
    updatedAt: init.now,
  };
  const member: RoomMemberRecord = {
    roomId: room.roomId,
    accountId: init.ownerAccountId,
    role: 'owner',
    acceptedConsentVersion: INITIAL_CONSENT_VERSION,
    consentReceiptRef: newConsentReceiptRef(),
    joinedAt: init.now,
    removedAt: null,
  };
  await uow.rooms.insertRoom(room);
  await uow.rooms.insertConsentVersion({
    roomId: room.roomId,
    version: INITIAL_CONSENT_VERSION,
    text: INITIAL_CONSENT_TEXT,
    publishedAt: init.now,
    publishedBy: init.ownerAccountId,
  });
  await uow.rooms.saveMember(member);
  return { room, member };
};
