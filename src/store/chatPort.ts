import type { ChatMessageRecord, ChatRecord, ObserverBindingRecord } from '../domain/chats.js';
import type { RevocationStatus } from '../domain/rooms.js';

/** What consuming a claim handle writes on the observer binding (OBS-05). */
export interface ClaimConsumption {
  readonly claimHash: string;
  readonly accountId: string;
  readonly runId: string;
  readonly runChatBindingRef: string;
  readonly at: number;
}

/**
 * The console's chats and the observer lane (UnitOfWork.chats; D-05, OBS-01..OBS-17). Every read
 * and change of a chat is keyed by the owning account as well: another account's chat is not found.
 */
export interface ChatRepository {
  insertChat(chat: ChatRecord): Promise<void>;
  getChat(chatId: string, accountId: string): Promise<ChatRecord | undefined>;
  /** The account's chats, most recently active first. */
  listChats(accountId: string): Promise<ChatRecord[]>;
  renameChat(chatId: string, accountId: string, title: string, at: number): Promise<boolean>;
  touchChat(chatId: string, at: number): Promise<void>;
  /**
   * Takes the chat row's lock until the transaction ends (PostgreSQL; SQLite's BEGIN IMMEDIATE
   * already serializes writers), so read-then-write work on the chat's bindings is not interleaved.
   * False when the account has no such chat (deleted meanwhile).
   */
  lockChat(chatId: string, accountId: string): Promise<boolean>;
  /** Deletes the chat, its messages and its observer bindings; call inside a transaction. */
  deleteChat(chatId: string, accountId: string, at: number): Promise<boolean>;

  insertMessage(message: ChatMessageRecord): Promise<void>;
  /** OBS-16: the terminal message under its stable id, once; false when it is already there. */
  insertMessageIfAbsent(message: ChatMessageRecord): Promise<boolean>;
  getMessage(messageId: string): Promise<ChatMessageRecord | undefined>;
  replaceMessageContent(messageId: string, content: string): Promise<void>;
  /** The chat's latest `limit` messages, oldest first. */
  listMessages(chatId: string, limit: number): Promise<ChatMessageRecord[]>;

  insertObserverBinding(binding: ObserverBindingRecord): Promise<void>;
  getObserverBinding(bindingRef: string, accountId: string): Promise<ObserverBindingRecord | undefined>;
  /** The chat's observer bindings, newest first (the page resumes the current one). */
  listObserverBindings(chatId: string, limit: number): Promise<ObserverBindingRecord[]>;
  /**
   * OBS-05: turns the pending, unexpired binding whose handle hashes to `claimHash` and that the
   * same account issued into an active one, once; undefined when there is none (used, expired,
   * unknown or another account's handle read the same).
   */
  consumeClaim(consumption: ClaimConsumption): Promise<ObserverBindingRecord | undefined>;
  /** WD-06: the account's own binding, revoked for good; idempotent. */
  revokeObserverBinding(bindingRef: string, accountId: string, at: number): Promise<RevocationStatus | 'not_found'>;
  /**
   * OBS-16: revokes the binding only while nobody has claimed it; false when a claim got there
   * first (on PostgreSQL the update waits for a concurrent claim's commit and then matches nothing).
   */
  retireUnclaimed(bindingRef: string, at: number): Promise<boolean>;
  /** Revokes every unclaimed (`pending_claim`) binding of the account, so its claim handles are dead. */
  revokePendingClaims(accountId: string, at: number): Promise<void>;
}
