import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The console's chats and the browser observer lane (docs/spec/shared-live-room-requirements.md
 * PRE-03, D-05, OBS-01..OBS-17, §20; docs/console.md). `helix_chat_sessions` is the seed's
 * `agi_chat_sessions`; its messages live beside it. An observer binding holds the SHA-256 of its
 * show-once claim handle only, the redacted snapshot (OBS-10), and once claimed the run and the
 * run-chat binding it created. No foreign keys, for the reason 0009_rooms gives.
 */
export const chats: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_chat_sessions')
      .addColumn('chat_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('title', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_chat_sessions_account')
      .on('helix_chat_sessions')
      .columns(['account_id', 'updated_at'])
      .execute();

    await db.schema
      .createTable('helix_chat_messages')
      .addColumn('message_id', 'varchar(80)', (c) => c.primaryKey())
      .addColumn('chat_id', 'varchar(40)', (c) => c.notNull())
      // The chat's account again, so subject access finds a message without its chat.
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('role', 'varchar(20)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_chat_messages_chat')
      .on('helix_chat_messages')
      .columns(['chat_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('helix_chat_observer_bindings')
      .addColumn('binding_ref', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('chat_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('claim_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('snapshot_ref', 'varchar(40)')
      .addColumn('snapshot_json', 'text', (c) => c.notNull())
      .addColumn('snapshot_chars', 'integer', (c) => c.notNull())
      .addColumn('run_id', 'varchar(210)')
      .addColumn('run_chat_binding_ref', 'varchar(40)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('claimed_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('helix_chat_observer_bindings_chat')
      .on('helix_chat_observer_bindings')
      .columns(['chat_id', 'created_at'])
      .execute();
    // WD-09: one active chat binding per run, so a claim cannot attach a bound run to a second chat.
    // Revoked rows fall out of the index, so a withdrawn run can be claimed afresh (WD-07, WD-08).
    await db.schema
      .createIndex('helix_room_chat_bindings_active_run')
      .on('helix_room_chat_bindings')
      .column('run_id')
      .unique()
      .where(sql.ref('status'), '=', 'active')
      .execute();
  },
};
