import type { AccountPolicy } from '../../domain/accountPolicy.js';
import type { EnvironmentAdapterRegistry } from '../../domain/environmentAdapterRegistry.js';
import type { Store } from '../../store/port.js';

/** The current account policy, read afresh on every call (src/accounts/accountPolicies.ts). */
export interface AccountPolicyReader {
  forAccount(accountId: string): Promise<AccountPolicy>;
}

/** What the bound room capabilities read with: the store, the adapter registry and their bounds. */
export interface BoundRoomLane {
  readonly store: Store;
  /** Whose policy a source's creator holds now: a source speaks only while its creator may (SRC-06). */
  readonly policies: AccountPolicyReader;
  /** The registry whose current profile contract hash an admission must still carry. */
  readonly adapters: EnvironmentAdapterRegistry;
  /** HELIX_BOUND_ROOM_EVIDENCE_MAX_AGE_MS (ING-05). */
  readonly maxAgeMs: number;
  readonly probe: ProbeWait;
}

/** How a probe waits for its answer: store polls `intervalMs` apart, for at most `waitMs` in all. */
export interface ProbeWait {
  readonly intervalMs: number;
  readonly waitMs: number;
}

/**
 * A probe waits at most 15 s (docs/rooms.md "The environment probe"), polling every 200 ms: the
 * connector polls `/probes/pending` every few seconds, and the turn's own deadline still applies.
 */
export const PROBE_WAIT: ProbeWait = { intervalMs: 200, waitMs: 15_000 };
