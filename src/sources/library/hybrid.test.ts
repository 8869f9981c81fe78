import { describe, expect, it } from 'vitest';
import type { LibrarySearchHit } from '../../store/port.js';
import { RRF_K } from '../../domain/rankFusion.js';
import { fuseRankings } from './hybrid.js';

const hit = (id: string, score: number): LibrarySearchHit => ({
  passage: { passageId: id, docId: 'doc', ordinal: 0, heading: null, page: null, start: 0, end: 1, text: id },
  document: { docId: 'doc', title: 'Doc', displayPath: 'doc.md' },
  score,
});
const ids = (hits: readonly LibrarySearchHit[]) => hits.map((h) => h.passage.passageId);

describe('fuseRankings (reciprocal rank fusion)', () => {
  it('keeps the order of a single list, scored 1/(k+rank)', () => {
    const fused = fuseRankings([[hit('a', 9), hit('b', 5), hit('c', 1)]], 10);
    expect(ids(fused)).toEqual(['a', 'b', 'c']);
    expect(fused.map((h) => h.score)).toEqual([1 / (RRF_K + 1), 1 / (RRF_K + 2), 1 / (RRF_K + 3)]);
  });

  it('lifts a passage both lists found above one only one list ranked first', () => {
    const lexical = [hit('only-words', 30), hit('both', 12)];
    const semantic = [hit('only-meaning', 0.9), hit('both', 0.8)];
    expect(ids(fuseRankings([lexical, semantic], 10))).toEqual(['both', 'only-words', 'only-meaning']);
  });

  it('uses ranks only: the scales of the scores do not matter', () => {
    const lexical = [hit('a', 1_000_000), hit('b', 999_999)];
    const semantic = [hit('b', 0.01), hit('a', 0.009)];
    expect(ids(fuseRankings([lexical, semantic], 10))).toEqual(['a', 'b']);
  });

  it('reaches a passage the lexical list missed and keeps to the limit', () => {
    const fused = fuseRankings([[hit('x', 3), hit('y', 2)], [hit('paraphrase', 0.7)]], 2);
    expect(ids(fused)).toEqual(['x', 'paraphrase']);
  });

  it('returns nothing for empty lists', () => {
    expect(fuseRankings([[], []], 5)).toEqual([]);
  });
});
