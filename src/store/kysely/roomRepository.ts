import type { Kysely, Selectable } from 'kysely';
import type {
  ConsentVersionRecord,
  RoomInviteRecord,
  RoomMemberRecord,
  RoomRecord,
  RoomRole,
  RoomStatus,
} from '../../domain/rooms.js';
import type { RoomRepository } from '../roomPort.js';
import type {
  HelixDatabase,
  RoomConsentVersionsTable,
  RoomInvitesTable,
  RoomMembersTable,
  RoomsTable,
} from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';
import { roomBindingRepository } from './roomBindingRepository.js';

const roomFromRow = (row: Selectable<RoomsTable>): RoomRecord => ({
  roomId: row.room_id,
  title: row.title,
  status: row.status as RoomStatus,
  ownerAccountId: row.owner_account_id,
  tenantHash: row.tenant_hash,
  ownerHash: row.owner_hash,
  consentVersion: row.consent_version,
  createdAt: toMillis(row.created_at),
  updatedAt: toMillis(row.updated_at),
});

const consentFromRow = (row: Selectable<RoomConsentVersionsTable>): ConsentVersionRecord => ({
  roomId: row.room_id,
  version: row.version,
  text: row.text,
  publishedAt: toMillis(row.published_at),
  publishedBy: row.published_by,
});

const memberFromRow = (row: Selectable<RoomMembersTable>): RoomMemberRecord => ({
  roomId: row.room_id,
  accountId: row.account_id,
  role: row.role as RoomRole,
  acceptedConsentVersion: row.accepted_consent_version,
  consentReceiptRef: row.consent_receipt_ref,
  joinedAt: toMillis(row.joined_at),
  removedAt: toMillisOrNull(row.removed_at),
});

const inviteFromRow = (row: Selectable<RoomInvitesTable>): RoomInviteRecord => ({
  tokenHash: row.token_hash,
  inviteRef: row.invite_ref,
  roomId: row.room_id,
  role: row.role as RoomRole,
  createdBy: row.created_by,
  createdAt: toMillis(row.created_at),
  expiresAt: toMillis(row.expires_at),
  usedAt: toMillisOrNull(row.used_at),
  usedBy: row.used_by,
  revokedAt: toMillisOrNull(row.revoked_at),
});

type Part<K extends keyof RoomRepository> = Pick<RoomRepository, K>;

const roomRecords = (
  db: Kysely<HelixDatabase>,
): Part<'insertRoom' | 'getRoom' | 'listRoomsOfMember' | 'listAllRooms' | 'advanceConsentVersion'> => ({
  async insertRoom(room) {
    await db
      .insertInto('helix_rooms')
      .values({
        room_id: room.roomId,
        title: room.title,
        status: room.status,
        owner_account_id: room.ownerAccountId,
        tenant_hash: room.tenantHash,
        owner_hash: room.ownerHash,
        consent_version: room.consentVersion,
        created_at: room.createdAt,
        updated_at: room.updatedAt,
      })
      .execute();
  },
  async getRoom(roomId) {
    const row = await db.selectFrom('helix_rooms').selectAll().where('room_id', '=', roomId).executeTakeFirst();
    return row === undefined ? undefined : roomFromRow(row);
  },
  async listRoomsOfMember(accountId, tenantHash) {
    let query = db
      .selectFrom('helix_rooms as r')
      .innerJoin('helix_room_members as m', 'm.room_id', 'r.room_id')
      .selectAll('r')
      .where('m.account_id', '=', accountId)
      .where('m.removed_at', 'is', null);
    if (tenantHash !== null) query = query.where('r.tenant_hash', '=', tenantHash);
    const rows = await query.orderBy('r.created_at').orderBy('r.room_id').execute();
    return rows.map(roomFromRow);
  },
  async listAllRooms() {
    const rows = await db.selectFrom('helix_rooms').selectAll().orderBy('created_at').orderBy('room_id').execute();
    return rows.map(roomFromRow);
  },
  async advanceConsentVersion(roomId, fromVersion, at) {
    const result = await db
      .updateTable('helix_rooms')
      .set({ consent_version: fromVersion + 1, updated_at: at })
      .where('room_id', '=', roomId)
      .where('consent_version', '=', fromVersion)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },
});

const consentRecords = (db: Kysely<HelixDatabase>): Part<'insertConsentVersion' | 'getConsentVersion'> => ({
  async insertConsentVersion(v) {
    await db
      .insertInto('helix_room_consent_versions')
      .values({
        room_id: v.roomId,
        version: v.version,
        text: v.text,
        published_at: v.publishedAt,
        published_by: v.publishedBy,
      })
      .execute();
  },
  async getConsentVersion(roomId, version) {
    const row = await db
      .selectFrom('helix_room_consent_versions')
      .selectAll()
      .where('room_id', '=', roomId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row === undefined ? undefined : consentFromRow(row);
  },
});

const memberColumns = (m: RoomMemberRecord) => ({
  role: m.role,
  accepted_consent_version: m.acceptedConsentVersion,
  consent_receipt_ref: m.consentReceiptRef,
  joined_at: m.joinedAt,
  removed_at: m.removedAt,
});

const memberRecords = (
  db: Kysely<HelixDatabase>,
): Part<'lockCurrentMember' | 'saveMember' | 'seatMember' | 'getMember' | 'listMembers'> => ({
  async lockCurrentMember(roomId, accountId) {
    // A no-op UPDATE takes the row lock on PostgreSQL (SQLite's BEGIN IMMEDIATE already holds the
    // database's); under READ COMMITTED a concurrent removal's change is re-checked before it matches.
    const locked = await db
      .updateTable('helix_room_members')
      .set((eb) => ({ removed_at: eb.ref('removed_at') }))
      .where('room_id', '=', roomId)
      .where('account_id', '=', accountId)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    if (locked.numUpdatedRows !== 1n) return undefined;
    const row = await db
      .selectFrom('helix_room_members')
      .selectAll()
      .where('room_id', '=', roomId)
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return memberFromRow(row);
  },
  async saveMember(m) {
    const row = memberColumns(m);
    await db
      .insertInto('helix_room_members')
      .values({ room_id: m.roomId, account_id: m.accountId, ...row })
      .onConflict((oc) => oc.columns(['room_id', 'account_id']).doUpdateSet(row))
      .execute();
  },
  async seatMember(m) {
    const row = memberColumns(m);
    const result = await db
      .insertInto('helix_room_members')
      .values({ room_id: m.roomId, account_id: m.accountId, ...row })
      .onConflict((oc) =>
        oc.columns(['room_id', 'account_id']).doUpdateSet(row).where('helix_room_members.removed_at', 'is not', null),
      )
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  },
  async getMember(roomId, accountId) {
    const row = await db
      .selectFrom('helix_room_members')
      .selectAll()
      .where('room_id', '=', roomId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row === undefined ? undefined : memberFromRow(row);
  },
  async listMembers(roomId) {
    const rows = await db
      .selectFrom('helix_room_members')
      .selectAll()
      .where('room_id', '=', roomId)
      .orderBy('joined_at')
      .orderBy('account_id')
      .execute();
    return rows.map(memberFromRow);
  },
});

const inviteRecords = (db: Kysely<HelixDatabase>): Part<'insertInvite' | 'consumeInvite'> => ({
  async insertInvite(i) {
    await db
      .insertInto('helix_room_invites')
      .values({
        token_hash: i.tokenHash,
        invite_ref: i.inviteRef,
        room_id: i.roomId,
        role: i.role,
        created_by: i.createdBy,
        created_at: i.createdAt,
        expires_at: i.expiresAt,
        used_at: i.usedAt,
        used_by: i.usedBy,
        revoked_at: i.revokedAt,
      })
      .execute();
  },
  async consumeInvite(tokenHash, accountId, at) {
    // One conditional UPDATE: of two concurrent uses, exactly one changes the row. An invite
    // carries its issuer's authority, so it seats no one once the issuer is no longer an owner.
    const result = await db
      .updateTable('helix_room_invites')
      .set({ used_at: at, used_by: accountId })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('helix_room_members as m')
            .select('m.account_id')
            .whereRef('m.room_id', '=', 'helix_room_invites.room_id')
            .whereRef('m.account_id', '=', 'helix_room_invites.created_by')
            .where('m.removed_at', 'is', null)
            .where('m.role', '=', 'owner'),
        ),
      )
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) return undefined;
    const row = await db
      .selectFrom('helix_room_invites')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirstOrThrow();
    return inviteFromRow(row);
  },
});

/** An owner's view of the room's invites and their revocation (D-09). */
const inviteManagement = (db: Kysely<HelixDatabase>): Part<'listInvites' | 'revokeInvite' | 'revokeInvitesOf'> => ({
  async listInvites(roomId, limit) {
    const rows = await db
      .selectFrom('helix_room_invites')
      .selectAll()
      .where('room_id', '=', roomId)
      .orderBy('created_at', 'desc')
      .orderBy('invite_ref')
      .limit(limit)
      .execute();
    return rows.map(inviteFromRow);
  },
  async revokeInvite(roomId, inviteRef, at) {
    const result = await db
      .updateTable('helix_room_invites')
      .set({ revoked_at: at })
      .where('room_id', '=', roomId)
      .where('invite_ref', '=', inviteRef)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 1n) return 'revoked';
    const row = await db
      .selectFrom('helix_room_invites')
      .select(['used_at', 'revoked_at'])
      .where('room_id', '=', roomId)
      .where('invite_ref', '=', inviteRef)
      .executeTakeFirst();
    if (row === undefined) return 'not_found';
    return row.revoked_at === null ? 'used' : 'already_revoked';
  },
  async revokeInvitesOf(roomId, accountId, at) {
    const result = await db
      .updateTable('helix_room_invites')
      .set({ revoked_at: at })
      .where('room_id', '=', roomId)
      .where('created_by', '=', accountId)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
});

export const roomRepository = (db: Kysely<HelixDatabase>): RoomRepository => ({
  ...roomRecords(db),
  ...consentRecords(db),
  ...memberRecords(db),
  ...inviteRecords(db),
  ...inviteManagement(db),
  ...roomBindingRepository(db),
});
