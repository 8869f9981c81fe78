import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Shared Live Room, part 1 (docs/spec/shared-live-room-requirements.md §20; docs/rooms.md): rooms,
 * their members and consent versions, single-use invites (only the token's SHA-256 is stored), and
 * the run-room and run-chat bindings.
 *
 * D-07 / BRE-10 are rules of this migration, not numbers: on a fresh schema there is no legacy
 * binding to revoke, so the rule that an active binding needs a valid consent identity is built in
 * (NOT NULL consent version and receipt, version at least 1), and nothing is back-filled from room state.
 * RREST-04 / WD-09: at most one active binding per run, enforced by a partial unique index (both
 * SQLite and PostgreSQL have them), so concurrent binds cannot both win; revoked rows stay.
 *
 * No foreign keys, to accounts, runs or even rooms: subject access (src/store/kysely/subjectRecords.ts)
 * erases each subject's own rows table by table, and erasing a room's creator deletes the room
 * while other members' rows about it stay theirs. Such rows are inert: every use case reads the
 * room first, and a missing room is "not found".
 */
export const rooms: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createRoomTables(db);
    await createBindingTables(db);
  },
};

/** Rooms, consent versions, members, invites. */
const createRoomTables = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('helix_rooms')
    .addColumn('room_id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('owner_account_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('tenant_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('owner_hash', 'varchar(64)')
    .addColumn('consent_version', 'integer', (c) => c.notNull().check(sql`consent_version >= 1`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('helix_rooms_owner_account').on('helix_rooms').column('owner_account_id').execute();

  await db.schema
    .createTable('helix_room_consent_versions')
    .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('text', 'varchar(4000)', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('published_by', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('helix_room_consent_versions_pk', ['room_id', 'version'])
    .execute();

  await db.schema
    .createTable('helix_room_members')
    .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('role', 'varchar(20)', (c) => c.notNull())
    .addColumn('accepted_consent_version', 'integer')
    .addColumn('consent_receipt_ref', 'varchar(40)')
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addColumn('removed_at', 'bigint')
    .addPrimaryKeyConstraint('helix_room_members_pk', ['room_id', 'account_id'])
    .execute();
  await db.schema.createIndex('helix_room_members_account').on('helix_room_members').column('account_id').execute();

  await db.schema
    .createTable('helix_room_invites')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('role', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('used_by', 'varchar(64)')
    .execute();
  await db.schema.createIndex('helix_room_invites_room').on('helix_room_invites').column('room_id').execute();
};

/** The run-room and run-chat bindings. */
const createBindingTables = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('helix_room_run_bindings')
    .addColumn('binding_ref', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('run_id', 'varchar(210)', (c) => c.notNull())
    .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('role', 'varchar(20)', (c) => c.notNull())
    .addColumn('consent_version', 'integer', (c) => c.notNull().check(sql`consent_version >= 1`))
    .addColumn('consent_receipt_ref', 'varchar(40)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  // RREST-04: one active binding per run. Revoked rows fall out of the index, so they never block a rebind (WD-07).
  await db.schema
    .createIndex('helix_room_run_bindings_active_run')
    .on('helix_room_run_bindings')
    .column('run_id')
    .unique()
    .where(sql.ref('status'), '=', 'active')
    .execute();
  await db.schema
    .createIndex('helix_room_run_bindings_room')
    .on('helix_room_run_bindings')
    .columns(['room_id', 'account_id', 'status'])
    .execute();
  await db.schema
    .createIndex('helix_room_run_bindings_owner')
    .on('helix_room_run_bindings')
    .column('owner_hash')
    .execute();

  await db.schema
    .createTable('helix_room_chat_bindings')
    .addColumn('binding_ref', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('run_id', 'varchar(210)', (c) => c.notNull())
    .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('chat_session_id', 'varchar(120)')
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('helix_room_chat_bindings_owner')
    .on('helix_room_chat_bindings')
    .column('owner_hash')
    .execute();
};
