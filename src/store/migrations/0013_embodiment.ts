import type { Kysely, Migration } from 'kysely';

/**
 * The embodiment (docs/spec/shared-live-room-requirements.md M-02..M-04, MC-01..MC-15, SRC-07,
 * §23.3; docs/embodiment.md). The action credential is a second secret of a source, separate from
 * its source bearer, minted with it when the delivery is claimed and dropped with it on rotation,
 * revocation and expiry; only its SHA-256 is stored. Subjects (the player a source embodies, under
 * an opaque ref, never the player's name: only a SHA-256 key), the member's expiring lease on one,
 * workflows, and the actions and controls queued for the connector. No foreign keys, for the
 * reason 0009_rooms gives; every table carries an owner hash, so subject access finds its rows.
 */
export const embodiment: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('helix_room_sources').addColumn('action_credential_hash', 'varchar(64)').execute();

    await db.schema
      .createTable('helix_environment_subjects')
      .addColumn('subject_ref', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('source_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('player_key', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('holder_account_id', 'varchar(64)')
      .addColumn('lease_expires_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_environment_subjects_room')
      .on('helix_environment_subjects')
      .columns(['room_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('helix_environment_workflows')
      .addColumn('workflow_ref', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('source_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('subject_ref', 'varchar(40)', (c) => c.notNull())
      .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('reason', 'varchar(64)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('helix_environment_actions')
      .addColumn('action_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('workflow_ref', 'varchar(40)', (c) => c.notNull())
      .addColumn('source_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('action_json', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('reason', 'varchar(64)')
      .addColumn('postcondition_json', 'text')
      .addColumn('approval_id', 'varchar(40)')
      .addColumn('issued_at', 'bigint', (c) => c.notNull())
      .addColumn('deadline_at', 'bigint', (c) => c.notNull())
      .addColumn('answered_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('helix_environment_actions_source')
      .on('helix_environment_actions')
      .columns(['source_id', 'status', 'issued_at'])
      .execute();
    await db.schema
      .createIndex('helix_environment_actions_workflow')
      .on('helix_environment_actions')
      .column('workflow_ref')
      .execute();

    await db.schema
      .createTable('helix_environment_controls')
      .addColumn('control_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('workflow_ref', 'varchar(40)', (c) => c.notNull())
      .addColumn('source_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('control', 'varchar(20)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('postcondition_json', 'text')
      .addColumn('issued_at', 'bigint', (c) => c.notNull())
      .addColumn('answered_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('helix_environment_controls_source')
      .on('helix_environment_controls')
      .columns(['source_id', 'status', 'issued_at'])
      .execute();
  },
};
