import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rebuildAbstract } from './openAlex.js';

const invert = (words: readonly string[]): Record<string, number[]> => {
  // A Map, because words like "constructor" are keys an object literal already has.
  const index = new Map<string, number[]>();
  words.forEach((word, position) => {
    index.set(word, [...(index.get(word) ?? []), position]);
  });
  return Object.fromEntries(index);
};

describe('rebuildAbstract', () => {
  it('restores the word order of any inverted index', () => {
    const word = fc.stringMatching(/^[A-Za-z.,()-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 200 }), (words) => {
        expect(rebuildAbstract(invert(words))).toBe(words.join(' '));
      }),
    );
  });

  it('does not allocate by position: a huge position is just ordered last', () => {
    expect(rebuildAbstract({ end: [1_000_000_000], start: [0] })).toBe('start end');
  });
});
