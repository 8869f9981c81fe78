import type { Kysely, Migration } from 'kysely';

/**
 * Runtime approval receipts (docs/spec/shared-live-room-requirements.md APR-03, D-06; docs/embodiment.md
 * "Runtime approval receipts"): the durable one-time replay ledger. A receipt is consumed by
 * inserting its identity (`approval_id`, from issuer, key id and nonce); the primary key makes a
 * second insert, from this or any other replica, write nothing. The receipt itself is not stored.
 * Rows carry the consumer's owner hash, so subject access finds them.
 */
export const runtimeApprovals: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_runtime_approval_receipts')
      .addColumn('approval_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('key_id', 'varchar(256)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('subject_ref', 'varchar(320)', (c) => c.notNull())
      .addColumn('run_id', 'varchar(210)')
      .addColumn('turn', 'integer')
      .addColumn('action_sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('issued_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('consumed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_runtime_approval_receipts_expiry')
      .on('helix_runtime_approval_receipts')
      .column('expires_at')
      .execute();
  },
};
