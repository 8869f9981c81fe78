import type { Kysely, Migration } from 'kysely';

/**
 * ADR-0004 subject access. Runs, receipts and provider registrations are keyed by an owner hash
 * (an HMAC of tenant, issuer, subject and account), so an account's rows cannot be found from the
 * account id alone: the owner registry maps each owner hash to its data subject key (an HMAC of
 * the account id), written in the transaction of the owner's first write. The erasure table is
 * the audit of each erase and its idempotency record; it holds hashes, a credential id, counts and
 * a time, never an account id.
 *
 * No back-fill: API-key owners are derived from their key rows when a subject is resolved; owners
 * of other credentials (OAuth, local JWT) that wrote before this migration are registered by their
 * next mutation and cannot be attributed before it (docs/production.md).
 */
export const subjectAccess: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_subject_owners')
      .addColumn('owner_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('subject_key', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_subject_owners_subject')
      .on('helix_subject_owners')
      .column('subject_key')
      .execute();

    await db.schema
      .createTable('helix_subject_erasures')
      .addColumn('erasure_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('subject_key', 'varchar(64)', (c) => c.notNull())
      .addColumn('requested_by', 'varchar(200)', (c) => c.notNull())
      .addColumn('idempotency_key_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('records', 'text', (c) => c.notNull())
      .addColumn('erased_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_subject_erasures_request')
      .on('helix_subject_erasures')
      .columns(['requested_by', 'idempotency_key_hash'])
      .unique()
      .execute();
    await db.schema
      .createIndex('helix_subject_erasures_subject')
      .on('helix_subject_erasures')
      .columns(['subject_key', 'erased_at'])
      .execute();
  },
};
