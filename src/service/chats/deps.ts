import type { AccountPolicy } from '../../domain/accountPolicy.js';
import type { Store } from '../../store/port.js';

/**
 * What the chat and observer use cases need; the server passes its RoomDeps, which has all of it.
 * The policy is read afresh on every observer call (SLR-11: the `shared_live_room` lock).
 */
export interface ChatDeps {
  readonly store: Store;
  readonly now: () => number;
  readonly policies: { forAccount(accountId: string): Promise<AccountPolicy> };
}
