import { reciprocalRankFusion } from '../../domain/rankFusion.js';
import type { LibrarySearchHit } from '../../store/port.js';

/**
 * The hybrid ranking: the lexical and the semantic lists fused by reciprocal rank
 * (src/domain/rankFusion.ts). A passage both lists agree on rises above one only one of them
 * found. Ties keep first-seen order (the lexical list first), so the fusion of one list is that
 * list. A fused hit's score is its RRF score.
 */
export const fuseRankings = (lists: readonly (readonly LibrarySearchHit[])[], limit: number): LibrarySearchHit[] =>
  reciprocalRankFusion(lists, (hit) => hit.passage.passageId)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ item, score }) => ({ ...item, score }));
