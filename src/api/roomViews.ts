import {
  inviteStatusAt,
  type RevocationStatus,
  type RoomInviteRecord,
  type RoomMemberRecord,
  type RoomRecord,
  type RoomRole,
  type RunRoomBindingRecord,
} from '../domain/rooms.js';
import { NON_AUTHORITY_FLAGS } from './flags.js';

/**
 * Room receipts (docs/spec/shared-live-room-requirements.md §22 names the schemas). SLR-07: every one
 * is a control receipt carrying the four false-authority flags; none is an answer.
 */
export const ROOM_RECEIPT_SCHEMAS = {
  list: 'helix.shared_live_room.list_receipt.v1',
  inspect: 'helix.shared_live_room.inspect_receipt.v1',
  // [impl]: §22 names no creation receipt; it reads like the inspect receipt of the new room.
  create: 'helix.shared_live_room.create_receipt.v1',
  runBind: 'helix.shared_live_room.run_bind_receipt.v1',
  chatBindingClaim: 'helix.shared_live_room.chat_binding_claim_receipt.v1',
  runUnbind: 'helix.shared_live_room.run_unbind_receipt.v1',
  chatBindingUnbind: 'helix.shared_live_room.chat_binding_unbind_receipt.v1',
} as const;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A room as a member sees it, with the caller's own membership; other members' accounts are not shown (SLR-06). */
export const projectRoom = (room: RoomRecord, member: RoomMemberRecord) => ({
  room_id: room.roomId,
  title: room.title,
  status: room.status,
  consent_version: room.consentVersion,
  created_at: iso(room.createdAt),
  membership: {
    role: member.role,
    accepted_consent_version: member.acceptedConsentVersion,
    consent_current: member.acceptedConsentVersion === room.consentVersion,
    joined_at: iso(member.joinedAt),
  },
});
export type RoomView = ReturnType<typeof projectRoom>;

export const roomListReceipt = (rooms: readonly RoomView[]) => ({
  schema: ROOM_RECEIPT_SCHEMAS.list,
  rooms,
  ...NON_AUTHORITY_FLAGS,
});
export type RoomListReceipt = ReturnType<typeof roomListReceipt>;

export const roomReceipt = (schema: 'inspect' | 'create', room: RoomView) => ({
  schema: ROOM_RECEIPT_SCHEMAS[schema],
  room,
  ...NON_AUTHORITY_FLAGS,
});
export type RoomReceipt = ReturnType<typeof roomReceipt>;

/** RREST-04, BRE-09: the binding with the participant's role and the consent it was made under. */
export const runBindReceipt = (binding: RunRoomBindingRecord) => ({
  schema: ROOM_RECEIPT_SCHEMAS.runBind,
  binding_ref: binding.bindingRef,
  binding_status: binding.status,
  room_id: binding.roomId,
  run_id: binding.runId,
  participant_role: binding.role satisfies RoomRole,
  consent_version: binding.consentVersion,
  consent_receipt_ref: binding.consentReceiptRef,
  created_at: iso(binding.createdAt),
  ...NON_AUTHORITY_FLAGS,
});
export type RunBindReceipt = ReturnType<typeof runBindReceipt>;

/**
 * RREST-06, OBS-06: what the agent learns from a claim: the opaque run-chat binding ref, an optional
 * snapshot ref and bounded counts. Never a chat id, the snapshot text or any chat catalog.
 */
export const chatBindingClaimReceipt = (claim: {
  readonly bindingRef: string;
  readonly snapshotRef: string | null;
  readonly snapshotMessages: number;
  readonly snapshotChars: number;
  readonly createdAt: number;
}) => ({
  schema: ROOM_RECEIPT_SCHEMAS.chatBindingClaim,
  binding_ref: claim.bindingRef,
  binding_status: 'active' as const,
  snapshot_ref: claim.snapshotRef,
  snapshot_message_count: claim.snapshotMessages,
  snapshot_char_count: claim.snapshotChars,
  created_at: iso(claim.createdAt),
  ...NON_AUTHORITY_FLAGS,
});
export type ChatBindingClaimReceipt = ReturnType<typeof chatBindingClaimReceipt>;

/** WD-04: the opaque ref and what happened to it, nothing about the run, room, chat or owner. */
export const unbindReceipt = (
  kind: 'runUnbind' | 'chatBindingUnbind',
  bindingRef: string,
  status: RevocationStatus,
) => ({
  schema: ROOM_RECEIPT_SCHEMAS[kind],
  binding_ref: bindingRef,
  binding_status: 'revoked' as const,
  revocation_status: status,
  ...NON_AUTHORITY_FLAGS,
});
export type UnbindReceipt = ReturnType<typeof unbindReceipt>;

/** Console/CLI (D-09): the room's members, as the owner manages them. */
export const projectMember = (member: RoomMemberRecord) => ({
  account_id: member.accountId,
  role: member.role,
  accepted_consent_version: member.acceptedConsentVersion,
  consent_receipt_ref: member.consentReceiptRef,
  joined_at: iso(member.joinedAt),
  removed_at: iso(member.removedAt),
});
export type MemberView = ReturnType<typeof projectMember>;

/** An invite as its room's owners list it (D-09): never the token nor its hash. */
export const projectInvite = (invite: RoomInviteRecord, now: number) => ({
  invite_ref: invite.inviteRef,
  role: invite.role,
  status: inviteStatusAt(invite, now),
  created_by: invite.createdBy,
  created_at: iso(invite.createdAt),
  expires_at: iso(invite.expiresAt),
  used_at: iso(invite.usedAt),
  used_by: invite.usedBy,
  revoked_at: iso(invite.revokedAt),
});
export type InviteView = ReturnType<typeof projectInvite>;
