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

  /** Inserts or replaces the member's row (a removed member who is invited again gets its row back). */
  saveMember(member: RoomMemberRecord): Promise<void>;
  /** The member's row, removed or not. */
  getMember(roomId: string, accountId: string): Promise<RoomMemberRecord | undefined>;
  /** Every row of the room, removed members included, in joining order. */
  listMembers(roomId: string): Promise<RoomMemberRecord[]>;

  insertInvite(invite: RoomInviteRecord): Promise<void>;
  /** Uses an unexpired, unused invite exactly once; undefined when it is unknown, expired or used. */
  consumeInvite(tokenHash: string, accountId: string, at: number): Promise<RoomInviteRecord | undefined>;

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
