import type { Kysely, Migration } from 'kysely';

/**
 * Shared Live Room, part 2 (docs/spec/shared-live-room-requirements.md §8, §10, §22; docs/rooms.md
 * "Source ingress"): the ingress lane's request ledger (replay refusal), each source's connection
 * status, observations with exact provenance and the probes runs ask of sources. Producer epochs
 * are stored only as SHA-256; no bearer is ever stored here. No foreign keys, for the reason
 * 0009_rooms gives; every table carries the source's owner hash, so subject access finds its rows.
 */
export const roomIngress: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('helix_room_ingress_requests')
      .addColumn('source_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('request_id', 'varchar(128)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('route', 'varchar(40)', (c) => c.notNull())
      .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('producer_epoch_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('response_json', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('helix_room_ingress_requests_pk', ['source_id', 'request_id'])
      .execute();

    await db.schema
      .createTable('helix_room_source_status')
      .addColumn('source_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('producer_epoch_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('last_heartbeat_at', 'bigint', (c) => c.notNull())
      .addColumn('game_connected', 'integer', (c) => c.notNull())
      .addColumn('last_observed_at', 'bigint')
      .execute();

    await db.schema
      .createTable('helix_room_observations')
      .addColumn('observation_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('source_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('world_id', 'varchar(200)', (c) => c.notNull())
      .addColumn('admission_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('profile_id', 'varchar(120)', (c) => c.notNull())
      .addColumn('profile_version', 'integer', (c) => c.notNull())
      .addColumn('profile_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('manifest_id', 'varchar(200)', (c) => c.notNull())
      .addColumn('manifest_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('producer_epoch_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_id', 'varchar(128)', (c) => c.notNull())
      .addColumn('event_id', 'varchar(128)', (c) => c.notNull())
      .addColumn('kind', 'varchar(20)', (c) => c.notNull())
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('payload_json', 'text', (c) => c.notNull())
      .addColumn('payload_sha256', 'varchar(64)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('helix_room_observations_source')
      .on('helix_room_observations')
      .columns(['source_id', 'kind', 'observed_at'])
      .execute();
    await db.schema
      .createIndex('helix_room_observations_room')
      .on('helix_room_observations')
      .columns(['room_id', 'received_at'])
      .execute();

    await db.schema
      .createTable('helix_room_probes')
      .addColumn('probe_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('source_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('run_id', 'varchar(210)', (c) => c.notNull())
      .addColumn('turn', 'integer', (c) => c.notNull())
      .addColumn('probe_type', 'varchar(200)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('requested_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('delivered_at', 'bigint')
      .addColumn('answered_at', 'bigint')
      .addColumn('observation_id', 'varchar(40)')
      .execute();
    await db.schema
      .createIndex('helix_room_probes_source')
      .on('helix_room_probes')
      .columns(['source_id', 'status', 'requested_at'])
      .execute();
  },
};
