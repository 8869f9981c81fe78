/** Cormack, Clarke and Büttcher (SIGIR 2009), "Reciprocal rank fusion": k = 60 damps the head without ignoring the tail. */
export const RRF_K = 60;

export interface Fused<T> {
  /** The item as the first list that ranked it holds it. */
  readonly item: T;
  /** Σ 1 / (k + rank) over the lists that rank it, rank from 1. */
  readonly score: number;
}

/**
 * Reciprocal rank fusion of ranked lists, items matched by `keyOf`. Only ranks count, so lists
 * scored on different scales (bm25, cosine) fuse without calibration. The result is in first-seen
 * order (list by list, best first), for callers to sort by score and break ties as they need.
 */
export const reciprocalRankFusion = <T>(
  lists: readonly (readonly T[])[],
  keyOf: (item: T) => string,
  k: number = RRF_K,
): Fused<T>[] => {
  const fused = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    for (const [position, item] of list.entries()) {
      const key = keyOf(item);
      const entry = fused.get(key) ?? { item, score: 0 };
      entry.score += 1 / (k + position + 1);
      fused.set(key, entry);
    }
  }
  return [...fused.values()];
};
