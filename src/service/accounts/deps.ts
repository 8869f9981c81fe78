import type { Store } from '../../store/port.js';

/** What every account use case needs; the server and the operator's CLI build the same. */
export interface AccountDeps {
  readonly store: Store;
  /** Keys the tenant and subject hashes of a linked identity, exactly as for runs. */
  readonly instanceSecret: string;
  readonly now: () => number;
}
