import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Bounded room storage (docs/rooms.md "Storage bounds"; issue 27): each observation records the
 * UTF-8 size of its stored payload, which the per-room storage quota adds up (an index on
 * `(room_id, payload_bytes)` answers the sum without reading the payloads), and the ingress request
 * ledger gets the `(source_id, received_at)` index its pruning by age and by count walks. Rows
 * written before this migration are sized by the characters of their payload, close enough for a
 * quota that only has to bound growth.
 */
export const roomStorageBounds: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('helix_room_observations')
      .addColumn('payload_bytes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update helix_room_observations set payload_bytes = length(payload_json)`.execute(db);
    await db.schema
      .createIndex('helix_room_observations_room_bytes')
      .on('helix_room_observations')
      .columns(['room_id', 'payload_bytes'])
      .execute();
    await db.schema
      .createIndex('helix_room_ingress_requests_received')
      .on('helix_room_ingress_requests')
      .columns(['source_id', 'received_at', 'request_id'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('helix_room_ingress_requests_received').execute();
    await db.schema.dropIndex('helix_room_observations_room_bytes').execute();
    await db.schema.alterTable('helix_room_observations').dropColumn('payload_bytes').execute();
  },
};
