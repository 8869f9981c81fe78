import { HelixError } from '../../domain/errors.js';
import { approvalActionSha256, approvalIdOf, type ConsumedApproval } from '../../domain/runtimeApproval.js';
import type { UnitOfWork } from '../../store/port.js';
import type { ApprovalDeps } from './deps.js';
import { verifyReceipt } from './verifyReceipt.js';

/** What the caller is about to do, and for whom; `runId`/`turn` are null together for an action outside a run. */
export interface ApprovalRequest {
  /** The compact receipt the approval host signed; undefined or empty when none was passed. */
  readonly receipt: string | undefined;
  /** The exact action (its canonical JSON is hashed and must equal the receipt's `action_sha256`). */
  readonly action: unknown;
  readonly roomId: string;
  readonly subjectRef: string;
  readonly runId: string | null;
  readonly turn: number | null;
  /** The acting owner: the ledger row is theirs for subject access. */
  readonly ownerHash: string;
}

/**
 * Ledger rows are kept this long after their receipt expired, then forgotten: an expired receipt is
 * refused by its clock check before the ledger is asked, so the margin only has to cover clock
 * differences between replicas, with room to spare.
 */
const LEDGER_RETENTION_AFTER_EXPIRY_MS = 24 * 60 * 60 * 1000;

/**
 * Verifies a runtime approval receipt for one confirmation-governed action (APR-02..APR-07, D-06,
 * D-11): no registry, untrusted key, bad signature, expiry, any bound field that differs. Touches
 * no store: nothing is consumed yet. Returns the ledger row that consuming it will write.
 */
export const verifyApproval = async (
  deps: Pick<ApprovalDeps, 'trustedKeys' | 'now'>,
  request: ApprovalRequest,
): Promise<ConsumedApproval> => {
  const now = deps.now();
  const verified = await verifyReceipt(
    deps.trustedKeys,
    request.receipt ?? '',
    {
      actionSha256: approvalActionSha256(request.action),
      roomId: request.roomId,
      subjectRef: request.subjectRef,
      runId: request.runId,
      turn: request.turn,
    },
    now,
  );
  return {
    ...verified,
    approvalId: approvalIdOf(verified.issuer, verified.keyId, verified.nonce),
    ownerHash: request.ownerHash,
    consumedAt: now,
  };
};

/**
 * Consumes a verified receipt once, in the caller's transaction (D-06): one insert into the durable
 * replay ledger, which only one of any number of concurrent consumers wins (the rest are
 * `runtime_approval_receipt_replayed`). Call it in the transaction that writes the effect the
 * receipt approves, so a call that fails after this point (a conflict, a lost race) rolls the
 * consumption back with everything else and the receipt stays usable.
 */
export const consumeApproval = async (uow: UnitOfWork, approval: ConsumedApproval): Promise<void> => {
  await uow.runtimeApprovals.pruneExpired(approval.consumedAt - LEDGER_RETENTION_AFTER_EXPIRY_MS);
  if (!(await uow.runtimeApprovals.consume(approval))) throw new HelixError('runtime_approval_receipt_replayed');
};

/**
 * Verifies a receipt and consumes it in a transaction of its own (APR-02..APR-08): for a caller
 * whose effect is not a store write. A receipt that fails verification is not consumed, so a
 * mismatched attempt cannot burn the approval meant for the real action. Returns the consumed
 * receipt's identity, for the action's audit.
 */
export const verifyAndConsumeApproval = async (
  deps: ApprovalDeps,
  request: ApprovalRequest,
): Promise<ConsumedApproval> => {
  const approval = await verifyApproval(deps, request);
  await deps.store.transaction((uow) => consumeApproval(uow, approval));
  return approval;
};
