import type { PassageEmbedder } from '../../sources/library/embedder.js';
import type { Store } from '../../store/port.js';

/** What the research library's use cases need (the operator's CLI builds it). */
export interface LibraryDeps {
  readonly store: Store;
  readonly now: () => number;
  /** HELIX_EMBEDDINGS_*: embeds passages at ingest for hybrid search; absent, the library is lexical only. */
  readonly embedder?: PassageEmbedder;
}
