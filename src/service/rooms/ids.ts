import { randomBytes } from 'node:crypto';

/**
 * Server-derived identifiers (SLR-06), random and opaque: nothing in them names an owner, a run or
 * a room. The formats are the patterns of src/domain/rooms.ts.
 */
const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

export const newRoomId = (): string => `room_${hex(12)}`;
export const newRunRoomBindingRef = (): string => `rrb_${hex(16)}`;
export const newRunChatBindingRef = (): string => `rcb_${hex(16)}`;
export const newConsentReceiptRef = (): string => `rcr_${hex(16)}`;
/** Shown once to the inviting owner; only its SHA-256 is stored. */
export const newInviteToken = (): string => `hlxinv_${randomBytes(32).toString('base64url')}`;
/** The invite's listing and revocation handle; unrelated to the token. */
export const newInviteRef = (): string => `rinv_${hex(16)}`;
