import type { Kysely, Migration } from 'kysely';

/**
 * Shared Live Room, part 2 (docs/spec/shared-live-room-requirements.md §7, §20; docs/rooms.md
 * "Sources and credential delivery"): room sources, their single-use credential deliveries and
 * their adapter admissions. Only SHA-256 hashes of the source bearer, the claim handle and the
 * producer epoch are stored (SRC-03, SRC-05, §22). No foreign keys, for the reason 0009_rooms gives;
 * every table carries the source's owner hash, so subject access finds and erases its rows.
 */
export const roomSources: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_room_sources')
      .addColumn('source_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('domain_adapter', 'varchar(80)', (c) => c.notNull())
      .addColumn('world_id', 'varchar(200)', (c) => c.notNull())
      .addColumn('label', 'varchar(120)', (c) => c.notNull())
      .addColumn('profile_id', 'varchar(120)', (c) => c.notNull())
      .addColumn('profile_version', 'integer', (c) => c.notNull())
      .addColumn('profile_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('credential_hash', 'varchar(64)')
      .addColumn('credential_created_at', 'bigint')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('rotated_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_room_sources_room')
      .on('helix_room_sources')
      .columns(['room_id', 'created_at'])
      .execute();
    await db.schema.createIndex('helix_room_sources_creator').on('helix_room_sources').column('created_by').execute();

    await db.schema
      .createTable('helix_room_source_deliveries')
      .addColumn('handle_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('source_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('claimed_at', 'bigint')
      .addColumn('claimed_by', 'varchar(64)')
      .execute();
    await db.schema
      .createIndex('helix_room_source_deliveries_source')
      .on('helix_room_source_deliveries')
      .column('source_id')
      .execute();

    await db.schema
      .createTable('helix_room_source_admissions')
      .addColumn('admission_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('source_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('profile_id', 'varchar(120)', (c) => c.notNull())
      .addColumn('profile_version', 'integer', (c) => c.notNull())
      .addColumn('profile_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('manifest_id', 'varchar(200)', (c) => c.notNull())
      .addColumn('manifest_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('producer_epoch_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('admitted_at', 'bigint', (c) => c.notNull())
      .addColumn('invalidated_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('helix_room_source_admissions_source')
      .on('helix_room_source_admissions')
      .columns(['source_id', 'invalidated_at'])
      .execute();
  },
};
