import type { Kysely, Migration } from 'kysely';

/**
 * Per-owner model provider registrations. The API key is stored only as AES-256-GCM ciphertext,
 * IV and tag (base64 text, identical in both dialects) with the id of the operator key that sealed
 * it; a keyless local server leaves all four null.
 */
export const modelProviders: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_model_providers')
      .addColumn('provider_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('kind', 'varchar(40)', (c) => c.notNull())
      .addColumn('base_url', 'text', (c) => c.notNull())
      .addColumn('model', 'varchar(200)', (c) => c.notNull())
      .addColumn('reasoning_effort', 'varchar(20)')
      .addColumn('label', 'text')
      .addColumn('secret_ciphertext', 'text')
      .addColumn('secret_iv', 'varchar(32)')
      .addColumn('secret_tag', 'varchar(32)')
      .addColumn('secret_key_id', 'varchar(32)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_model_providers_owner')
      .on('helix_model_providers')
      .columns(['owner_hash', 'created_at'])
      .execute();
  },
};
