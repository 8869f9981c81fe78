import type { Store } from '../../store/port.js';

/** What the research library's use cases need (the operator's CLI builds it). */
export interface LibraryDeps {
  readonly store: Store;
  readonly now: () => number;
}
