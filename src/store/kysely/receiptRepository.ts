import type { Insertable, Kysely, Selectable } from 'kysely';
import { compiledOnce } from './compiledOnce.js';
import type { ReceiptKey, ReceiptRecord, ReceiptRepository, ReceiptState } from '../port.js';
import type { HelixDatabase, IdempotencyReceiptsTable } from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

const fromRow = (row: Selectable<IdempotencyReceiptsTable>): ReceiptRecord => ({
  ownerHash: row.owner_hash,
  operation: row.operation,
  keyHash: row.key_hash,
  fingerprint: row.fingerprint,
  runId: row.run_id,
  state: row.state as ReceiptState,
  statusCode: row.status_code === null ? null : Number(row.status_code),
  responseBody: row.response_body,
  leaseExpiresAt: toMillisOrNull(row.lease_expires_at),
  workerId: row.worker_id,
  createdAt: toMillis(row.created_at),
  expiresAt: toMillis(row.expires_at),
});

type ReceiptRow = Selectable<IdempotencyReceiptsTable>;

// Every mutation reserves, then completes, a receipt: compiled once (compiledOnce.ts).
const selectReceipt = compiledOnce((db, ownerHash: string, operation: string, keyHash: string) =>
  db
    .selectFrom('helix_idempotency_receipts')
    .selectAll()
    .where('owner_hash', '=', ownerHash)
    .where('operation', '=', operation)
    .where('key_hash', '=', keyHash),
);
const insertReceipt = compiledOnce((db, row: Insertable<IdempotencyReceiptsTable>) =>
  db
    .insertInto('helix_idempotency_receipts')
    .values(row)
    .onConflict((oc) => oc.columns(['owner_hash', 'operation', 'key_hash']).doNothing()),
);
const completeReceipt = compiledOnce(
  (
    db,
    statusCode: number,
    responseBody: string,
    runId: string | null,
    ownerHash: string,
    operation: string,
    keyHash: string,
  ) =>
    db
      .updateTable('helix_idempotency_receipts')
      .set({
        state: 'completed',
        status_code: statusCode,
        response_body: responseBody,
        run_id: runId,
        lease_expires_at: null,
      })
      .where('owner_hash', '=', ownerHash)
      .where('operation', '=', operation)
      .where('key_hash', '=', keyHash),
);

export const receiptRepository = (db: Kysely<HelixDatabase>): ReceiptRepository => {
  const byKey = (key: ReceiptKey) =>
    db
      .updateTable('helix_idempotency_receipts')
      .where('owner_hash', '=', key.ownerHash)
      .where('operation', '=', key.operation)
      .where('key_hash', '=', key.keyHash);

  return {
    async get(key) {
      const [row] = (await selectReceipt<ReceiptRow>(db, key.ownerHash, key.operation, key.keyHash)).rows;
      return row === undefined ? undefined : fromRow(row);
    },
    async insert(r) {
      const result = await insertReceipt(db, {
        owner_hash: r.ownerHash,
        operation: r.operation,
        key_hash: r.keyHash,
        fingerprint: r.fingerprint,
        run_id: r.runId,
        state: r.state,
        status_code: r.statusCode,
        response_body: r.responseBody,
        lease_expires_at: r.leaseExpiresAt,
        worker_id: r.workerId,
        created_at: r.createdAt,
        expires_at: r.expiresAt,
      });
      return Number(result.numAffectedRows ?? 0n) === 1;
    },
    async complete(key, statusCode, responseBody, runId) {
      await completeReceipt(db, statusCode, responseBody, runId, key.ownerHash, key.operation, key.keyHash);
    },
    async markOutcomeUnknown(key) {
      await byKey(key)
        .set({ state: 'outcome_unknown', lease_expires_at: null })
        .where('state', '=', 'processing')
        .execute();
    },
    async delete(key) {
      await db
        .deleteFrom('helix_idempotency_receipts')
        .where('owner_hash', '=', key.ownerHash)
        .where('operation', '=', key.operation)
        .where('key_hash', '=', key.keyHash)
        .execute();
    },
    async listProcessingForRun(runId) {
      const rows = await db
        .selectFrom('helix_idempotency_receipts')
        .selectAll()
        .where('run_id', '=', runId)
        .where('state', '=', 'processing')
        .execute();
      return rows.map(fromRow);
    },
    async deleteExpired(now) {
      const result = await db
        .deleteFrom('helix_idempotency_receipts')
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
};
