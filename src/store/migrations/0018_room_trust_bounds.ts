import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Issue 27 (docs/rooms.md "Invites", "Run-chat bindings"):
 *
 * - Invites get an opaque reference (`rinv_` + 32 hex), so an owner can list and revoke them
 *   without the token, and a `revoked_at`. Existing invites take the first half of their token's
 *   SHA-256 as reference: it reveals nothing of the token, and they need one to be revocable.
 * - An unused invite whose issuer is no longer a current owner of its room is revoked here: from
 *   now on removing or demoting an owner revokes its unused invites in the same transaction, and
 *   the invites issued before that rule must not keep seating members (the removed owner's
 *   `owner` invites did).
 * - One active run-chat binding per chat (WD-09, OBS-16), by a partial unique index: two observer
 *   claims issued concurrently for one chat could each bind a run to it. Should the race have
 *   left a chat with several active bindings, the oldest stays and the others are revoked (a
 *   revoked row is never reactivated, WD-07), so the index can be built.
 */
export const roomTrustBounds: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const now = Date.now();
    await db.schema.alterTable('helix_room_invites').addColumn('invite_ref', 'varchar(40)').execute();
    await db.schema.alterTable('helix_room_invites').addColumn('revoked_at', 'bigint').execute();
    await sql`update helix_room_invites set invite_ref = 'rinv_' || substr(token_hash, 1, 32)`.execute(db);
    await db.schema
      .createIndex('helix_room_invites_ref')
      .on('helix_room_invites')
      .column('invite_ref')
      .unique()
      .execute();
    await sql`
      update helix_room_invites set revoked_at = ${now}
      where used_at is null and revoked_at is null and not exists (
        select 1 from helix_room_members m
        where m.room_id = helix_room_invites.room_id and m.account_id = helix_room_invites.created_by
          and m.removed_at is null and m.role = 'owner')`.execute(db);

    await sql`
      update helix_room_chat_bindings set status = 'revoked', revoked_at = ${now}
      where status = 'active' and chat_session_id is not null and exists (
        select 1 from helix_room_chat_bindings o
        where o.chat_session_id = helix_room_chat_bindings.chat_session_id and o.status = 'active'
          and (o.created_at < helix_room_chat_bindings.created_at
            or (o.created_at = helix_room_chat_bindings.created_at and o.binding_ref < helix_room_chat_bindings.binding_ref)))`.execute(
      db,
    );
    await db.schema
      .createIndex('helix_room_chat_bindings_active_chat')
      .on('helix_room_chat_bindings')
      .column('chat_session_id')
      .unique()
      .where(sql.ref('status'), '=', 'active')
      .execute();
  },
};
