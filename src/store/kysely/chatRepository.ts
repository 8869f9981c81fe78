import type { Kysely, Selectable } from 'kysely';
import type {
  ChatMessageRecord,
  ChatRecord,
  ChatRole,
  ObserverBindingRecord,
  SnapshotMessage,
  StoredObserverStatus,
} from '../../domain/chats.js';
import type { ChatRepository } from '../chatPort.js';
import type { ChatMessagesTable, ChatObserverBindingsTable, ChatSessionsTable, HelixDatabase } from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

const chatFromRow = (row: Selectable<ChatSessionsTable>): ChatRecord => ({
  chatId: row.chat_id,
  accountId: row.account_id,
  title: row.title,
  createdAt: toMillis(row.created_at),
  updatedAt: toMillis(row.updated_at),
});

const messageFromRow = (row: Selectable<ChatMessagesTable>): ChatMessageRecord => ({
  messageId: row.message_id,
  chatId: row.chat_id,
  accountId: row.account_id,
  role: row.role as ChatRole,
  content: row.content,
  createdAt: toMillis(row.created_at),
});

const observerFromRow = (row: Selectable<ChatObserverBindingsTable>): ObserverBindingRecord => ({
  bindingRef: row.binding_ref,
  accountId: row.account_id,
  chatId: row.chat_id,
  claimHash: row.claim_hash,
  status: row.status as StoredObserverStatus,
  expiresAt: toMillis(row.expires_at),
  snapshotRef: row.snapshot_ref,
  snapshot: JSON.parse(row.snapshot_json) as SnapshotMessage[],
  snapshotChars: row.snapshot_chars,
  runId: row.run_id,
  runChatBindingRef: row.run_chat_binding_ref,
  createdAt: toMillis(row.created_at),
  claimedAt: toMillisOrNull(row.claimed_at),
  revokedAt: toMillisOrNull(row.revoked_at),
});

const messageRow = (m: ChatMessageRecord) => ({
  message_id: m.messageId,
  chat_id: m.chatId,
  account_id: m.accountId,
  role: m.role,
  content: m.content,
  created_at: m.createdAt,
});

const chatOps = (
  db: Kysely<HelixDatabase>,
): Pick<
  ChatRepository,
  'insertChat' | 'getChat' | 'listChats' | 'renameChat' | 'touchChat' | 'lockChat' | 'deleteChat'
> => ({
  async insertChat(c) {
    await db
      .insertInto('helix_chat_sessions')
      .values({
        chat_id: c.chatId,
        account_id: c.accountId,
        title: c.title,
        created_at: c.createdAt,
        updated_at: c.updatedAt,
      })
      .execute();
  },
  async getChat(chatId, accountId) {
    const row = await db
      .selectFrom('helix_chat_sessions')
      .selectAll()
      .where('chat_id', '=', chatId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row === undefined ? undefined : chatFromRow(row);
  },
  async listChats(accountId) {
    const rows = await db
      .selectFrom('helix_chat_sessions')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('updated_at', 'desc')
      .orderBy('chat_id')
      .execute();
    return rows.map(chatFromRow);
  },
  async renameChat(chatId, accountId, title, at) {
    const result = await db
      .updateTable('helix_chat_sessions')
      .set({ title, updated_at: at })
      .where('chat_id', '=', chatId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },
  async lockChat(chatId, accountId) {
    // A no-op UPDATE takes the row lock; a concurrent holder's commit is waited for first.
    const result = await db
      .updateTable('helix_chat_sessions')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('chat_id', '=', chatId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },
  async touchChat(chatId, at) {
    await db.updateTable('helix_chat_sessions').set({ updated_at: at }).where('chat_id', '=', chatId).execute();
  },
  async deleteChat(chatId, accountId, at) {
    const result = await db
      .deleteFrom('helix_chat_sessions')
      .where('chat_id', '=', chatId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (result.numDeletedRows !== 1n) return false;
    await db.deleteFrom('helix_chat_messages').where('chat_id', '=', chatId).execute();
    await db.deleteFrom('helix_chat_observer_bindings').where('chat_id', '=', chatId).execute();
    // WD-07: a deleted chat's run bindings close for good; the agent's withdrawal then reads already_revoked.
    await db
      .updateTable('helix_room_chat_bindings')
      .set({ status: 'revoked', revoked_at: at })
      .where('chat_session_id', '=', chatId)
      .where('status', '=', 'active')
      .execute();
    return true;
  },
});

const messageOps = (
  db: Kysely<HelixDatabase>,
): Pick<
  ChatRepository,
  'insertMessage' | 'insertMessageIfAbsent' | 'getMessage' | 'replaceMessageContent' | 'listMessages'
> => ({
  async insertMessage(m) {
    await db.insertInto('helix_chat_messages').values(messageRow(m)).execute();
  },
  async insertMessageIfAbsent(m) {
    const result = await db
      .insertInto('helix_chat_messages')
      .values(messageRow(m))
      .onConflict((oc) => oc.column('message_id').doNothing())
      .executeTakeFirst();
    return result.numInsertedOrUpdatedRows === 1n;
  },
  async getMessage(messageId) {
    const row = await db
      .selectFrom('helix_chat_messages')
      .selectAll()
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    return row === undefined ? undefined : messageFromRow(row);
  },
  async replaceMessageContent(messageId, content) {
    await db.updateTable('helix_chat_messages').set({ content }).where('message_id', '=', messageId).execute();
  },
  async listMessages(chatId, limit) {
    const rows = await db
      .selectFrom('helix_chat_messages')
      .selectAll()
      .where('chat_id', '=', chatId)
      .orderBy('created_at', 'desc')
      .orderBy('message_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(messageFromRow).reverse();
  },
});

const observerOps = (
  db: Kysely<HelixDatabase>,
): Pick<ChatRepository, 'insertObserverBinding' | 'getObserverBinding' | 'listObserverBindings' | 'consumeClaim'> => ({
  async insertObserverBinding(b) {
    await db
      .insertInto('helix_chat_observer_bindings')
      .values({
        binding_ref: b.bindingRef,
        account_id: b.accountId,
        chat_id: b.chatId,
        claim_hash: b.claimHash,
        status: b.status,
        expires_at: b.expiresAt,
        snapshot_ref: b.snapshotRef,
        snapshot_json: JSON.stringify(b.snapshot),
        snapshot_chars: b.snapshotChars,
        run_id: b.runId,
        run_chat_binding_ref: b.runChatBindingRef,
        created_at: b.createdAt,
        claimed_at: b.claimedAt,
        revoked_at: b.revokedAt,
      })
      .execute();
  },
  async getObserverBinding(bindingRef, accountId) {
    const row = await db
      .selectFrom('helix_chat_observer_bindings')
      .selectAll()
      .where('binding_ref', '=', bindingRef)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row === undefined ? undefined : observerFromRow(row);
  },
  async listObserverBindings(chatId, limit) {
    const rows = await db
      .selectFrom('helix_chat_observer_bindings')
      .selectAll()
      .where('chat_id', '=', chatId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map(observerFromRow);
  },
  async consumeClaim(c) {
    // One conditional update: of two concurrent claims of the same handle exactly one matches.
    const result = await db
      .updateTable('helix_chat_observer_bindings')
      .set({ status: 'active', run_id: c.runId, run_chat_binding_ref: c.runChatBindingRef, claimed_at: c.at })
      .where('claim_hash', '=', c.claimHash)
      .where('account_id', '=', c.accountId)
      .where('status', '=', 'pending_claim')
      .where('expires_at', '>', c.at)
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) return undefined;
    const row = await db
      .selectFrom('helix_chat_observer_bindings')
      .selectAll()
      .where('claim_hash', '=', c.claimHash)
      .executeTakeFirstOrThrow();
    return observerFromRow(row);
  },
});

/** The ways an observer binding ends: revoked by its owner, retired unclaimed, or with its account's handles. */
const observerRevocations = (
  db: Kysely<HelixDatabase>,
): Pick<ChatRepository, 'revokeObserverBinding' | 'retireUnclaimed' | 'revokePendingClaims'> => ({
  async revokeObserverBinding(bindingRef, accountId, at) {
    const result = await db
      .updateTable('helix_chat_observer_bindings')
      .set({ status: 'revoked', revoked_at: at })
      .where('binding_ref', '=', bindingRef)
      .where('account_id', '=', accountId)
      .where('status', '!=', 'revoked')
      .executeTakeFirst();
    if (result.numUpdatedRows === 1n) return 'revoked';
    const row = await db
      .selectFrom('helix_chat_observer_bindings')
      .select('status')
      .where('binding_ref', '=', bindingRef)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row === undefined ? 'not_found' : 'already_revoked';
  },
  async retireUnclaimed(bindingRef, at) {
    const result = await db
      .updateTable('helix_chat_observer_bindings')
      .set({ status: 'revoked', revoked_at: at })
      .where('binding_ref', '=', bindingRef)
      .where('status', '=', 'pending_claim')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },
  async revokePendingClaims(accountId, at) {
    await db
      .updateTable('helix_chat_observer_bindings')
      .set({ status: 'revoked', revoked_at: at })
      .where('account_id', '=', accountId)
      .where('status', '=', 'pending_claim')
      .execute();
  },
});

export const chatRepository = (db: Kysely<HelixDatabase>): ChatRepository => ({
  ...chatOps(db),
  ...messageOps(db),
  ...observerOps(db),
  ...observerRevocations(db),
});
