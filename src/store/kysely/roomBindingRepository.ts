import type { Kysely, Selectable } from 'kysely';
import type {
  RevocationStatus,
  RoomBindingStatus,
  RoomRole,
  RunChatBindingRecord,
  RunRoomBindingRecord,
} from '../../domain/rooms.js';
import type { RoomRepository } from '../roomPort.js';
import type { HelixDatabase, RoomChatBindingsTable, RoomRunBindingsTable } from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

const runBindingFromRow = (row: Selectable<RoomRunBindingsTable>): RunRoomBindingRecord => ({
  bindingRef: row.binding_ref,
  runId: row.run_id,
  roomId: row.room_id,
  ownerHash: row.owner_hash,
  accountId: row.account_id,
  role: row.role as RoomRole,
  consentVersion: row.consent_version,
  consentReceiptRef: row.consent_receipt_ref,
  status: row.status as RoomBindingStatus,
  createdAt: toMillis(row.created_at),
  revokedAt: toMillisOrNull(row.revoked_at),
});

const chatBindingFromRow = (row: Selectable<RoomChatBindingsTable>): RunChatBindingRecord => ({
  bindingRef: row.binding_ref,
  runId: row.run_id,
  ownerHash: row.owner_hash,
  chatSessionId: row.chat_session_id,
  status: row.status as RoomBindingStatus,
  createdAt: toMillis(row.created_at),
  revokedAt: toMillisOrNull(row.revoked_at),
});

type BindingTable = 'helix_room_run_bindings' | 'helix_room_chat_bindings';

/**
 * WD-02/WD-03/WD-07: the owner hash is part of the match, so another owner's ref is "not found";
 * a second withdrawal reports `already_revoked`; the row stays, revoked for good.
 */
const revokeOwned = async (
  db: Kysely<HelixDatabase>,
  table: BindingTable,
  ownerHash: string,
  bindingRef: string,
  at: number,
): Promise<RevocationStatus | 'not_found'> => {
  const result = await db
    .updateTable(table)
    .set({ status: 'revoked', revoked_at: at })
    .where('binding_ref', '=', bindingRef)
    .where('owner_hash', '=', ownerHash)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (result.numUpdatedRows === 1n) return 'revoked';
  const row = await db
    .selectFrom(table)
    .select('status')
    .where('binding_ref', '=', bindingRef)
    .where('owner_hash', '=', ownerHash)
    .executeTakeFirst();
  return row === undefined ? 'not_found' : 'already_revoked';
};

export const roomBindingRepository = (
  db: Kysely<HelixDatabase>,
): Pick<
  RoomRepository,
  | 'insertRunBindingIfFree'
  | 'getActiveRunBinding'
  | 'getRunBinding'
  | 'revokeRunBinding'
  | 'revokeRunBindingsOfMember'
  | 'insertChatBinding'
  | 'getChatBinding'
  | 'revokeChatBinding'
> => ({
  async insertRunBindingIfFree(b) {
    // No conflict target: the only unique index a fresh ref can hit is the partial one on the
    // active run (both dialects accept a bare DO NOTHING for it); PostgreSQL waits for a
    // concurrent insert of the same run to commit before deciding, so exactly one wins.
    const result = await db
      .insertInto('helix_room_run_bindings')
      .values({
        binding_ref: b.bindingRef,
        run_id: b.runId,
        room_id: b.roomId,
        owner_hash: b.ownerHash,
        account_id: b.accountId,
        role: b.role,
        consent_version: b.consentVersion,
        consent_receipt_ref: b.consentReceiptRef,
        status: b.status,
        created_at: b.createdAt,
        revoked_at: b.revokedAt,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return result.numInsertedOrUpdatedRows === 1n;
  },
  async getActiveRunBinding(runId) {
    const row = await db
      .selectFrom('helix_room_run_bindings')
      .selectAll()
      .where('run_id', '=', runId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return row === undefined ? undefined : runBindingFromRow(row);
  },
  async getRunBinding(bindingRef) {
    const row = await db
      .selectFrom('helix_room_run_bindings')
      .selectAll()
      .where('binding_ref', '=', bindingRef)
      .executeTakeFirst();
    return row === undefined ? undefined : runBindingFromRow(row);
  },
  revokeRunBinding: (ownerHash, bindingRef, at) =>
    revokeOwned(db, 'helix_room_run_bindings', ownerHash, bindingRef, at),
  async revokeRunBindingsOfMember(roomId, accountId, at) {
    const result = await db
      .updateTable('helix_room_run_bindings')
      .set({ status: 'revoked', revoked_at: at })
      .where('room_id', '=', roomId)
      .where('account_id', '=', accountId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
  async insertChatBinding(b) {
    // As for run bindings: the partial unique index on the active run (0014_chats) decides, WD-09.
    const result = await db
      .insertInto('helix_room_chat_bindings')
      .values({
        binding_ref: b.bindingRef,
        run_id: b.runId,
        owner_hash: b.ownerHash,
        chat_session_id: b.chatSessionId,
        status: b.status,
        created_at: b.createdAt,
        revoked_at: b.revokedAt,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return result.numInsertedOrUpdatedRows === 1n;
  },
  async getChatBinding(bindingRef) {
    const row = await db
      .selectFrom('helix_room_chat_bindings')
      .selectAll()
      .where('binding_ref', '=', bindingRef)
      .executeTakeFirst();
    return row === undefined ? undefined : chatBindingFromRow(row);
  },
  revokeChatBinding: (ownerHash, bindingRef, at) =>
    revokeOwned(db, 'helix_room_chat_bindings', ownerHash, bindingRef, at),
});
