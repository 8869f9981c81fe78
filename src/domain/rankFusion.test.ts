import { describe, expect, it } from 'vitest';
import { RRF_K, reciprocalRankFusion } from './rankFusion.js';

describe('reciprocalRankFusion', () => {
  it('sums 1/(k+rank) per item over the lists, keeping the first list’s copy, in first-seen order', () => {
    const fused = reciprocalRankFusion(
      [
        [
          { id: 'a', from: 1 },
          { id: 'b', from: 1 },
        ],
        [
          { id: 'b', from: 2 },
          { id: 'c', from: 2 },
        ],
      ],
      (item) => item.id,
    );
    expect(fused).toEqual([
      { item: { id: 'a', from: 1 }, score: 1 / (RRF_K + 1) },
      { item: { id: 'b', from: 1 }, score: 1 / (RRF_K + 2) + 1 / (RRF_K + 1) },
      { item: { id: 'c', from: 2 }, score: 1 / (RRF_K + 2) },
    ]);
  });

  it('takes another k', () => {
    expect(reciprocalRankFusion([['x']], (x) => x, 0)).toEqual([{ item: 'x', score: 1 }]);
  });
});
