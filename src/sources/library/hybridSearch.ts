import type { LibrarySearchHit, Store } from '../../store/port.js';
import type { PassageEmbedder } from './embedder.js';
import { fuseRankings } from './hybrid.js';

/** Each list offers this many candidates per result asked for, so fusion can lift a passage one list ranks low. */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 20;

export interface HybridRanking {
  readonly embedder: PassageEmbedder;
  /**
   * Told when the query could not be embedded and the lexical ranking alone was answered; the
   * reason is a ModelError message, which never quotes a key or a server's body.
   */
  readonly onFallback: (reason: string) => void;
}

/**
 * Hybrid library search: the lexical ranking (BM25 / ts_rank, whatever `lexical` runs) and the
 * nearest embeddings of the query, fused by reciprocal rank (hybrid.ts). An endpoint that fails
 * at query time costs the semantic half only: the lexical ranking is answered and `onFallback` told.
 */
export const hybridSearch = async (
  store: Store,
  { embedder, onFallback }: HybridRanking,
  query: string,
  limit: number,
  lexical: (limit: number) => Promise<LibrarySearchHit[]>,
  signal?: AbortSignal,
): Promise<LibrarySearchHit[]> => {
  const candidates = Math.max(limit * CANDIDATES_PER_RESULT, MIN_CANDIDATES);
  let vector: number[] | undefined;
  try {
    [vector] = await embedder.embed([query], signal);
  } catch (error) {
    onFallback((error as Error).message);
    return lexical(limit);
  }
  const [words, nearest] = await Promise.all([
    lexical(candidates),
    vector === undefined ? [] : store.read.library.nearest(vector, embedder.model, candidates),
  ]);
  return fuseRankings([words, nearest], limit);
};
