import type {
  ConsentVersionRecord,
  RevocationStatus,
  RoomInviteRecord,
  RoomMemberRecord,
  RoomRecord,
  RunChatBindingRecord,
  RunRoomBindingRecord,
} from '../domain/rooms.js';

/**
 * The Shared Live Room part of the storage port (UnitOfWork.rooms). Withdrawals are scoped to the
 * exact owner hash: another owner's binding ref is indistinguishable from a missing one (WD-02).
 */
export interface RoomRepository {
  insertRoom(room: RoomRecord): Promise<void>;
  getRoom(roomId: string): Promise<RoomRecord | undefined>;
  /**
   * Rooms where the account is a current (not removed) member, oldest first: of one tenant for a
   * principal (RREST-01), of every tenant (null) for the signed-in console and the operator (D-09).
   */
  listRoomsOfMember(accountId: string, tenantHash: string | null): Promise<RoomRecord[]>;
  /** Every room, oldest first: the operator's `helix rooms list` (D-09). */
  listAllRooms(): Promise<RoomRecord[]>;
  /** Compare-and-set of the room's current consent version; false when it moved meanwhile. */
  advanceConsentVersion(roomId: string, fromVersion: number, at: number): Promise<boolean>;

  insertConsentVersion(version: ConsentVersionRecord): Promise<void>;
  getConsentVersion(roomId: string, version: number): Promise<ConsentVersionRecord | undefined>;

  /**
   * The member's row if it is a current member, with a row lock held until the transaction ends
   * (a conditional no-op UPDATE, the same SQL on both dialects): a concurrent removal or role
   * change waits for this transaction, or this read waits for it and sees the member removed.
   */
  lockCurrentMember(roomId: string, accountId: string): Promise<RoomMemberRecord | undefined>;
  /** Inserts or replaces the member's row (a removed member who is invited again gets its row back). */
  saveMember(member: RoomMemberRecord): Promise<void>;
  /**
   * Seats `member` unless the account is a current member already: inserts its row, or takes back
   * a removed member's row; false (nothing written) when the row is current. One statement, so of
   * two concurrent joins the later one waits for the earlier one's commit and is refused.
   */
  seatMember(member: RoomMemberRecord): Promise<boolean>;
  /** The member's row, removed or not. */
  getMember(roomId: string, accountId: string): Promise<RoomMemberRecord | undefined>;
  /** Every row of the room, removed members included, in joining order. */
  listMembers(roomId: string): Promise<RoomMemberRecord[]>;

  insertInvite(invite: RoomInviteRecord): Promise<void>;
  /**
   * Uses a pending invite exactly once: unexpired, unused, unrevoked, and issued by an account
   * that is still a current owner of the room. Undefined otherwise.
   */
  consumeInvite(tokenHash: string, accountId: string, at: number): Promise<RoomInviteRecord | undefined>;
  /** The room's invites, newest first, at most `limit`. */
  listInvites(roomId: string, limit: number): Promise<RoomInviteRecord[]>;
  /** Revokes one unused invite of the room; `used` when it was used (nothing to revoke). */
  revokeInvite(roomId: string, inviteRef: string, at: number): Promise<RevocationStatus | 'used' | 'not_found'>;
  /** Revokes every unused, unrevoked invite the account issued in the room (its removal or demotion); returns how many. */
  revokeInvitesOf(roomId: string, accountId: string, at: number): Promise<number>;

  /**
   * Inserts an active binding unless the run already has one (RREST-04): true when this call took
   * the run's active slot. Race-safe: the partial unique index decides, not a prior read.
   */
  insertRunBindingIfFree(binding: RunRoomBindingRecord): Promise<boolean>;
  getActiveRunBinding(runId: string): Promise<RunRoomBindingRecord | undefined>;
  getRunBinding(bindingRef: string): Promise<RunRoomBindingRecord | undefined>;
  revokeRunBinding(ownerHash: string, bindingRef: string, at: number): Promise<RevocationStatus | 'not_found'>;
  /** Revokes the member's active bindings in the room (removal, demotion to observer); returns how many. */
  revokeRunBindingsOfMember(roomId: string, accountId: string, at: number): Promise<number>;

  /** Inserts an active chat binding unless the run already has one (WD-09): true when this call took the slot. */
  insertChatBinding(binding: RunChatBindingRecord): Promise<boolean>;
  getChatBinding(bindingRef: string): Promise<RunChatBindingRecord | undefined>;
  revokeChatBinding(ownerHash: string, bindingRef: string, at: number): Promise<RevocationStatus | 'not_found'>;
}
