import { randomBytes } from 'node:crypto';

/** Server-derived, opaque identifiers (SLR-06); the formats are the patterns of src/domain/chats.ts. */
const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

export const newChatId = (): string => `chat_${hex(12)}`;
export const newChatMessageId = (): string => `msg_${hex(16)}`;
export const newObserverBindingRef = (): string => `aob_${hex(16)}`;
export const newSnapshotRef = (): string => `csn_${hex(16)}`;
/** OBS-03: shown once to the browser; only its SHA-256 is stored (CHAT_CLAIM_HANDLE_PATTERN). */
export const newChatClaimHandle = (): string => `hlxclm_${randomBytes(32).toString('base64url')}`;
