import type { Store } from '../../store/port.js';

/** What every subject use case needs; the REST facade and the CLI build the same. */
export interface SubjectDeps {
  readonly store: Store;
  /** Keys the subject key and the owner hashes, exactly as for runs. */
  readonly instanceSecret: string;
  readonly now: () => number;
  readonly newId?: () => string;
}
