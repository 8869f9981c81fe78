/**
 * The console's chats and the browser observer lane (docs/spec/shared-live-room-requirements.md
 * PRE-03, D-05, OBS-01..OBS-17; docs/console.md "Chats and the observer lane"). Pure data and
 * decisions; storage lives in the store, use cases in src/service/chats/.
 */
import { isCredentialShaped } from './credentialShape.js';
import type { LatestResult, RunRecord } from './run.js';

/** A durable chat of one signed-in account (D-05): `chat_` and 24 hex digits, server-derived. */
export const CHAT_ID_PATTERN = /^chat_[0-9a-f]{24}$/;
export const isChatId = (value: string): boolean => CHAT_ID_PATTERN.test(value);

/** The browser's observer binding (OBS-12): opaque, nothing in it names the run, chat or account. */
export const OBSERVER_BINDING_REF_PATTERN = /^aob_[0-9a-f]{32}$/;
export const isObserverBindingRef = (value: string): boolean => OBSERVER_BINDING_REF_PATTERN.test(value);

/** A stored snapshot (OBS-06): the agent sees only this ref and the counts, never the text. */
export const SNAPSHOT_REF_PATTERN = /^csn_[0-9a-f]{32}$/;

export const CHAT_TITLE_MAX = 200;
/** One chat message as typed in the console; the terminal message may be longer (the run's answer). */
export const CHAT_MESSAGE_MAX = 8_000;
/** The console shows the most recent messages of a chat, oldest first. */
export const CHAT_PAGE_MESSAGES = 200;

/** OBS-02: the bounded recent-chat snapshot a browser may attach to a claim. */
export const SNAPSHOT_BOUNDS = { messages: 12, charsPerMessage: 2_000, totalChars: 12_000 } as const;

/** OBS-03: the claim handle is short-lived; ten minutes to paste it into an agent. */
export const CHAT_CLAIM_TTL_MS = 10 * 60_000;
/** OBS-11: an observer event page holds at most 100 events. */
export const OBSERVER_EVENTS_LIMIT = { min: 1, max: 100, default: 50 } as const;

export const CHAT_ROLES = ['user', 'assistant'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** OBS-12 [ref]: `expired` is a pending claim past its expiry, derived on read, never stored. */
export const OBSERVER_BINDING_STATUSES = ['pending_claim', 'active', 'revoked', 'expired'] as const;
export type ObserverBindingStatus = (typeof OBSERVER_BINDING_STATUSES)[number];
export type StoredObserverStatus = Exclude<ObserverBindingStatus, 'expired'>;

// C0 and C1 controls, DEL included: a title is one line of display text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// Message text is prose: tabs and newlines stay, other controls are refused.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const MESSAGE_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Why a chat title is refused, or undefined when it is fine (the title as given, before trimming). */
export const chatTitleProblem = (title: string): string | undefined => {
  const trimmed = title.trim();
  if (trimmed.length === 0) return 'must not be empty';
  if (trimmed.length > CHAT_TITLE_MAX) return `must be at most ${CHAT_TITLE_MAX} characters`;
  if (CONTROL_CHARACTERS.test(trimmed)) return 'must not contain control characters';
  // SLR-08: a title naming a credential would show it on every page.
  if (isCredentialShaped(trimmed)) return 'credential-shaped value refused';
  return undefined;
};

export const chatMessageProblem = (content: string, max: number): string | undefined => {
  if (content.trim().length === 0) return 'must not be empty';
  if (content.length > max) return `must be at most ${max} characters`;
  if (MESSAGE_CONTROL_CHARACTERS.test(content)) return 'must not contain control characters';
  return undefined;
};

export interface ChatRecord {
  readonly chatId: string;
  readonly accountId: string;
  readonly title: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface ChatMessageRecord {
  readonly messageId: string;
  readonly chatId: string;
  readonly accountId: string;
  readonly role: ChatRole;
  readonly content: string;
  readonly createdAt: number;
}

/** One message of an OBS-02 snapshot, already redacted (OBS-10). */
export interface SnapshotMessage {
  readonly role: ChatRole;
  readonly content: string;
}

export interface ObserverBindingRecord {
  readonly bindingRef: string;
  readonly accountId: string;
  readonly chatId: string;
  /** SHA-256 of the show-once claim handle (OBS-03, §20); the handle itself is never stored. */
  readonly claimHash: string;
  readonly status: StoredObserverStatus;
  readonly expiresAt: number;
  readonly snapshotRef: string | null;
  readonly snapshot: readonly SnapshotMessage[];
  readonly snapshotChars: number;
  /** Set when an agent claims the handle (OBS-05): the run and the run-chat binding it created. */
  readonly runId: string | null;
  readonly runChatBindingRef: string | null;
  readonly createdAt: number;
  readonly claimedAt: number | null;
  readonly revokedAt: number | null;
}

/** OBS-12: the status a reader sees; an unclaimed handle past its expiry reads `expired`. */
export const observerStatusAt = (binding: ObserverBindingRecord, now: number): ObserverBindingStatus =>
  binding.status === 'pending_claim' && now >= binding.expiresAt ? 'expired' : binding.status;

/**
 * OBS-14: the one thing that may become the chat's assistant message, the verified canonical
 * terminal product: a completed run whose terminal authority was authorized, with its answer text.
 * A terminal candidate that was not authorized (its `text` is null then, run.ts) never qualifies.
 */
export const verifiedTerminalText = (run: RunRecord): string | undefined => {
  const result: LatestResult | null = run.latestResult;
  if (run.lifecycle !== 'completed' || run.terminalAuthority !== 'authorized') return undefined;
  if (result === null || result.text === null || result.text.trim() === '') return undefined;
  return result.text;
};

/** OBS-16: one stable id per bound run's terminal message, so a reload or a second tab cannot add a second. */
export const terminalMessageId = (runChatBindingRef: string): string => `msg_t_${runChatBindingRef.slice(4)}`;
