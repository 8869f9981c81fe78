import type { Kysely, Selectable } from 'kysely';
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

export const receiptRepository = (db: Kysely<HelixDatabase>): ReceiptRepository => {
  const byKey = (key: ReceiptKey) =>
    db
      .updateTable('helix_idempotency_receipts')
      .where('owner_hash', '=', key.ownerHash)
      .where('operation', '=', key.operation)
      .where('key_hash', '=', key.keyHash);

  return {
    async get(key) {
      const row = await db
        .selectFrom('helix_idempotency_receipts')
        .selectAll()
        .where('owner_hash', '=', key.ownerHash)
        .where('operation', '=', key.operation)
        .where('key_hash', '=', key.keyHash)
        .executeTakeFirst();
      return row === undefined ? undefined : fromRow(row);
    },
    async insert(r) {
      const result = await db
        .insertInto('helix_idempotency_receipts')
        .values({
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
        })
        .onConflict((oc) => oc.columns(['owner_hash', 'operation', 'key_hash']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
    async complete(key, statusCode, responseBody, runId) {
      await byKey(key)
        .set({
          state: 'completed',
          status_code: statusCode,
          response_body: responseBody,
          run_id: runId,
          lease_expires_at: null,
        })
        .execute();
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
