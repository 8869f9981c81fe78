import type { ConsumedApproval } from '../domain/runtimeApproval.js';

/**
 * The runtime approval replay ledger in the storage port (UnitOfWork.runtimeApprovals; D-06,
 * APR-03). Consuming is one INSERT that conflicts on the receipt's identity, so of two concurrent
 * consumers, on one process or on two replicas of one PostgreSQL database, exactly one wins.
 */
export interface RuntimeApprovalLedger {
  /** Records the receipt as consumed; false when its identity was consumed before (nothing written). */
  consume(approval: ConsumedApproval): Promise<boolean>;
  /** Forgets receipts that expired before `before`: an expired receipt is refused before the ledger is asked. */
  pruneExpired(before: number): Promise<number>;
}
