/**
 * The plain BM25 baseline the evaluation compares retrieval with: whole-word lowercase tokens, no
 * stemming, no stop list, no field boosts (k1 = 1.2, b = 0.75), over the very passages Helix indexed.
 */
export interface BaselinePassage {
  readonly file: string;
  readonly text: string;
}

const K1 = 1.2;
const B = 0.75;

export const tokens = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export interface Bm25Index {
  /** The files of the top `k` passages for the query, best first (a file may repeat). */
  topFiles(query: string, k: number): string[];
}

export const buildBm25 = (passages: readonly BaselinePassage[]): Bm25Index => {
  const termCounts = passages.map((p) => {
    const counts = new Map<string, number>();
    for (const token of tokens(p.text)) counts.set(token, (counts.get(token) ?? 0) + 1);
    return counts;
  });
  const lengths = passages.map((p) => tokens(p.text).length);
  const averageLength = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const documentFrequency = new Map<string, number>();
  for (const counts of termCounts)
    for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const idf = (term: string): number => {
    const n = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (passages.length - n + 0.5) / (n + 0.5));
  };
  return {
    topFiles(query, k) {
      const terms = [...new Set(tokens(query))];
      const scores = termCounts.map((counts, i) => {
        const length = lengths[i] ?? 0;
        let score = 0;
        for (const term of terms) {
          const tf = counts.get(term) ?? 0;
          if (tf > 0) score += (idf(term) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / averageLength));
        }
        return { index: i, score };
      });
      return scores
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score || a.index - b.index)
        .slice(0, k)
        .map((s) => passages[s.index]?.file ?? '');
    },
  };
};
