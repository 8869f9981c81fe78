import type { TrustedApprovalKey } from '../../domain/runtimeApproval.js';
import type { Store } from '../../store/port.js';

/** What the approval use cases need: the store (the replay ledger), the trusted keys, the time. */
export interface ApprovalDeps {
  readonly store: Store;
  /** HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON, parsed at start-up; empty fails closed (APR-04). */
  readonly trustedKeys: readonly TrustedApprovalKey[];
  readonly now: () => number;
}
