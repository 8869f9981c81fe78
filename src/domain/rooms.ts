/**
 * The Shared Live Room model (docs/spec/shared-live-room-requirements.md §2 PRE-01, §20; docs/rooms.md):
 * rooms, their members and roles, consent versions, invites, and the bindings of runs to rooms and
 * chats. Pure data and decisions; storage lives in the store, use cases in src/service/rooms/.
 */
import { isCredentialShaped } from './credentialShape.js';

/** RREST-11: the external facade cannot close a room, but the status exists for the console and later issues. */
export const ROOM_STATUSES = ['active', 'closed'] as const;
export type RoomStatus = (typeof ROOM_STATUSES)[number];

/** D-09: an owner manages the room; a member may bind runs; an observer may only look. */
export const ROOM_ROLES = ['owner', 'member', 'observer'] as const;
export type RoomRole = (typeof ROOM_ROLES)[number];

/** WD-07, WD-09: revocation is permanent; a revoked row is never made active again. */
export const ROOM_BINDING_STATUSES = ['active', 'revoked'] as const;
export type RoomBindingStatus = (typeof ROOM_BINDING_STATUSES)[number];

/** WD-04: what a withdrawal did; a second withdrawal of the same ref is not an error (WD-03). */
export const REVOCATION_STATUSES = ['revoked', 'already_revoked'] as const;
export type RevocationStatus = (typeof REVOCATION_STATUSES)[number];

/**
 * Server-derived, opaque identifiers (SLR-06). RREST-12: a room id is `room_` and 24 lowercase hex
 * digits, so it can never be the literal path segments `run-bindings` or `chat-bindings`.
 */
export const ROOM_ID_PATTERN = /^room_[0-9a-f]{24}$/;
/** Opaque binding references (WD-01): nothing in them names the run, room, chat or owner. */
export const RUN_ROOM_BINDING_REF_PATTERN = /^rrb_[0-9a-f]{32}$/;
export const RUN_CHAT_BINDING_REF_PATTERN = /^rcb_[0-9a-f]{32}$/;
/** A member's consent receipt (PRE-01, BRE-09): opaque, minted when the member accepts a version. */
export const CONSENT_RECEIPT_REF_PATTERN = /^rcr_[0-9a-f]{32}$/;
/** A show-once invite token (D-09): 32 random bytes, base64url; only its SHA-256 is stored. */
export const INVITE_TOKEN_PATTERN = /^hlxinv_[A-Za-z0-9_-]{43}$/;
/** An invite's opaque reference: random, never derived from the token (invites older than 0018 excepted). */
export const INVITE_REF_PATTERN = /^rinv_[0-9a-f]{32}$/;

export const isRoomId = (value: string): boolean => ROOM_ID_PATTERN.test(value);
export const isRunRoomBindingRef = (value: string): boolean => RUN_ROOM_BINDING_REF_PATTERN.test(value);
export const isRunChatBindingRef = (value: string): boolean => RUN_CHAT_BINDING_REF_PATTERN.test(value);
export const isInviteToken = (value: string): boolean => INVITE_TOKEN_PATTERN.test(value);
export const isInviteRef = (value: string): boolean => INVITE_REF_PATTERN.test(value);
/**
 * The show-once chat claim handle a signed-in browser issues (§6, SLR-10): 32 random bytes,
 * base64url; only its SHA-256 is stored. Credential-shaped everywhere except as the exact
 * `claim_handle` of the claim operation (MRT-12).
 */
export const CHAT_CLAIM_HANDLE_PATTERN = /^hlxclm_[A-Za-z0-9_-]{43}$/;

export const ROOM_TITLE_MAX = 200;
/** A consent text is shown to every member before they accept it; bounded so the console can show it whole. */
export const CONSENT_TEXT_MAX = 4_000;
/** Invite lifetime bounds (D-09 "single-use, expiring"): default one day, at most a week. */
export const INVITE_TTL_MS = { min: 60_000, default: 86_400_000, max: 7 * 86_400_000 } as const;
/** The consent version a room starts at; its creator accepts it as it creates the room (D-09). */
export const INITIAL_CONSENT_VERSION = 1;
export const INITIAL_CONSENT_TEXT =
  'Members of this room can see the runs bound to it. Bind a run only if every member may see what it does.';

// C0 and C1 controls, DEL included: a title is one line of display text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a title is refused, or undefined when it is fine (the title as given, before trimming). */
export const roomTitleProblem = (title: string): string | undefined => {
  const trimmed = title.trim();
  if (trimmed.length === 0) return 'must not be empty';
  if (trimmed.length > ROOM_TITLE_MAX) return `must be at most ${ROOM_TITLE_MAX} characters`;
  if (CONTROL_CHARACTERS.test(trimmed)) return 'must not contain control characters';
  // SLR-08: credential-shaped values are refused before any room mutation.
  if (isCredentialShaped(trimmed)) return 'credential-shaped value refused';
  return undefined;
};

/** Consent text: multi-line prose, so only NUL and the other non-whitespace controls are refused. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONSENT_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const consentTextProblem = (text: string): string | undefined => {
  const trimmed = text.trim();
  if (trimmed.length === 0) return 'must not be empty';
  if (trimmed.length > CONSENT_TEXT_MAX) return `must be at most ${CONSENT_TEXT_MAX} characters`;
  if (CONSENT_CONTROL_CHARACTERS.test(trimmed)) return 'must not contain control characters';
  if (isCredentialShaped(trimmed)) return 'credential-shaped value refused';
  return undefined;
};

/** RREST-04: an observer may watch a room but not bind a run to it. */
export const roleMayBindRuns = (role: RoomRole): boolean => role === 'owner' || role === 'member';

export interface RoomRecord {
  readonly roomId: string;
  readonly title: string;
  readonly status: RoomStatus;
  /** The Helix account that created the room; it stays an owner member (D-09). */
  readonly ownerAccountId: string;
  /** Keyed hash of the creator's tenant: a principal of another tenant never sees the room. */
  readonly tenantHash: string;
  /** The creating agent owner (SLR-06); null for a room the operator created for an account. */
  readonly ownerHash: string | null;
  /** The current consent version members must have accepted to bind runs. */
  readonly consentVersion: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface ConsentVersionRecord {
  readonly roomId: string;
  readonly version: number;
  readonly text: string;
  readonly publishedAt: number;
  /** The owner account that published it. */
  readonly publishedBy: string;
}

/** One account's membership of one room; a removed member keeps its row with `removedAt` set. */
export interface RoomMemberRecord {
  readonly roomId: string;
  readonly accountId: string;
  readonly role: RoomRole;
  /** The consent version this member last accepted, null until it accepts one. */
  readonly acceptedConsentVersion: number | null;
  readonly consentReceiptRef: string | null;
  readonly joinedAt: number;
  readonly removedAt: number | null;
}

export interface RoomInviteRecord {
  /** SHA-256 of the show-once token; the token itself is never stored. */
  readonly tokenHash: string;
  /** The opaque reference an owner lists and revokes the invite by (INVITE_REF_PATTERN). */
  readonly inviteRef: string;
  readonly roomId: string;
  readonly role: RoomRole;
  readonly createdBy: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly usedAt: number | null;
  /** The account that used it; null once that account's data subject was erased (the row stays the inviter's). */
  readonly usedBy: string | null;
  /** Set when an owner revoked it, or when its issuer stopped being an owner of the room. */
  readonly revokedAt: number | null;
}

/**
 * What an invite is now (D-09 "single-use, expiring"): revoked and used are final, an unused one
 * past its expiry is expired, anything else is pending, the only state that seats a member.
 */
export const INVITE_STATUSES = ['pending', 'used', 'expired', 'revoked'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export const inviteStatusAt = (invite: RoomInviteRecord, now: number): InviteStatus => {
  if (invite.revokedAt !== null) return 'revoked';
  if (invite.usedAt !== null) return 'used';
  return now >= invite.expiresAt ? 'expired' : 'pending';
};

/** How many invites an owner's listing shows, newest first (the console page and `helix rooms members invites`). */
export const INVITE_LIST_MAX = 100;

/** RREST-04, BRE-09: who bound the run, in which role, under which consent, all written in one row. */
export interface RunRoomBindingRecord {
  readonly bindingRef: string;
  readonly runId: string;
  readonly roomId: string;
  readonly ownerHash: string;
  /** The participant: the member account whose membership authorized the binding. */
  readonly accountId: string;
  readonly role: RoomRole;
  readonly consentVersion: number;
  readonly consentReceiptRef: string;
  readonly status: RoomBindingStatus;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

/** A claimed run-chat binding (RREST-06/07); claims create them in a later issue, withdrawal works now. */
export interface RunChatBindingRecord {
  readonly bindingRef: string;
  readonly runId: string;
  readonly ownerHash: string;
  readonly chatSessionId: string | null;
  readonly status: RoomBindingStatus;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

/** A current member: not removed. */
export const isCurrentMember = (member: RoomMemberRecord | undefined): member is RoomMemberRecord =>
  member !== undefined && member.removedAt === null;

/** D-09: a member binds runs only under the room's current consent version, explicitly accepted. */
export const hasAcceptedCurrentConsent = (member: RoomMemberRecord, room: RoomRecord): boolean =>
  member.acceptedConsentVersion === room.consentVersion && member.consentReceiptRef !== null;
