import type { Kysely } from 'kysely';
import type { RuntimeApprovalLedger } from '../runtimeApprovalPort.js';
import type { HelixDatabase } from '../schema.js';

export const runtimeApprovalRepository = (db: Kysely<HelixDatabase>): RuntimeApprovalLedger => ({
  async consume(a) {
    const result = await db
      .insertInto('helix_runtime_approval_receipts')
      .values({
        approval_id: a.approvalId,
        issuer: a.issuer,
        key_id: a.keyId,
        owner_hash: a.ownerHash,
        room_id: a.roomId,
        subject_ref: a.subjectRef,
        run_id: a.runId,
        turn: a.turn,
        action_sha256: a.actionSha256,
        issued_at: a.issuedAt,
        expires_at: a.expiresAt,
        consumed_at: a.consumedAt,
      })
      .onConflict((oc) => oc.column('approval_id').doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) === 1n;
  },
  async pruneExpired(before) {
    const result = await db
      .deleteFrom('helix_runtime_approval_receipts')
      .where('expires_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});
