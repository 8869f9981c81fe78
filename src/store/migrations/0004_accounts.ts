import type { Kysely, Migration } from 'kysely';

/**
 * Helix accounts, linked providers, agent account bindings, browser sessions, and single-use
 * tokens (link intents, sign-in links). Nothing secret is stored in clear: subjects, tenants,
 * session cookies and one-time codes are stored as SHA-256 hashes.
 */
export const accounts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_accounts')
      .addColumn('account_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('helix_account_linked_providers')
      .addColumn('provider', 'varchar(100)', (c) => c.notNull())
      .addColumn('subject_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('helix_accounts.account_id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('helix_account_linked_providers_pk', ['provider', 'subject_hash'])
      .execute();

    await db.schema
      .createTable('helix_agent_account_bindings')
      .addColumn('binding_ref', 'varchar(120)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('helix_accounts.account_id'))
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('tenant_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('provider', 'varchar(100)', (c) => c.notNull())
      .addColumn('subject_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('helix_agent_account_bindings_identity')
      .on('helix_agent_account_bindings')
      .columns(['issuer', 'tenant_hash', 'provider', 'subject_hash', 'status'])
      .execute();
    await db.schema
      .createIndex('helix_agent_account_bindings_account')
      .on('helix_agent_account_bindings')
      .column('account_id')
      .execute();

    await db.schema
      .createTable('helix_sessions')
      .addColumn('session_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('helix_accounts.account_id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();

    await db.schema
      .createTable('helix_one_time_tokens')
      .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('helix_accounts.account_id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('consumed_at', 'bigint')
      .execute();
  },
};
