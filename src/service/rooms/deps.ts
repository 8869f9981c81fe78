import type { Principal } from '../../auth/principal.js';
import type { AccountPolicy } from '../../domain/accountPolicy.js';
import type { EnvironmentAdapterRegistry } from '../../domain/environmentAdapterRegistry.js';
import type { RoomStorageLimits } from '../../domain/roomStorage.js';
import type { TrustedApprovalKey } from '../../domain/runtimeApproval.js';
import type { Store } from '../../store/port.js';

/** What every room use case needs; the server and the operator's CLI build the same. */
export interface RoomDeps {
  readonly store: Store;
  /** Keys the owner and tenant hashes, exactly as for runs. */
  readonly instanceSecret: string;
  /** The account policy, read afresh on every call (src/accounts/accountPolicies.ts): feature `shared_live_room`. */
  readonly policies: {
    forPrincipal(principal: Principal): Promise<AccountPolicy>;
    forAccount(accountId: string): Promise<AccountPolicy>;
  };
  /** How long a completed room-creation idempotency receipt is kept (as for runs, 24 h). */
  readonly receiptTtlMs: number;
  readonly now: () => number;
  /** The environment adapter profiles room sources resolve through (HELIX_ENVIRONMENT_ADAPTER_FIXTURES). */
  readonly adapters: EnvironmentAdapterRegistry;
  /** HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON for world-mutating actions (D-11); absent or empty fails closed. */
  readonly runtimeApprovalKeys?: readonly TrustedApprovalKey[];
  /** HELIX_ROOM_* storage bounds of observations and the ingress ledger; absent: the bounded defaults. */
  readonly storageLimits?: RoomStorageLimits;
}
