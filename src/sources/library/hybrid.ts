import type { LibrarySearchHit } from '../../store/port.js';

/** Cormack, Clarke and Büttcher (SIGIR 2009), "Reciprocal rank fusion": k = 60 damps the weight of the first ranks. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each passage scores Σ 1 / (k + rank) over the lists it appears in (rank
 * from 1). Only ranks count, so a BM25 score and a cosine need no common scale; a passage both
 * lists agree on rises above one only one of them found. Ties keep the order of the first list
 * (then the passage id), so the fusion of one list is that list. The score of a fused hit is its
 * RRF score.
 */
export const fuseRankings = (
  lists: readonly (readonly LibrarySearchHit[])[],
  limit: number,
  k: number = RRF_K,
): LibrarySearchHit[] => {
  const fused = new Map<string, { hit: LibrarySearchHit; score: number; firstSeen: number }>();
  let seen = 0;
  for (const list of lists) {
    for (const [i, hit] of list.entries()) {
      const id = hit.passage.passageId;
      const entry = fused.get(id) ?? { hit, score: 0, firstSeen: seen++ };
      entry.score += 1 / (k + i + 1);
      fused.set(id, entry);
    }
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.firstSeen - b.firstSeen)
    .slice(0, limit)
    .map(({ hit, score }) => ({ ...hit, score }));
};
