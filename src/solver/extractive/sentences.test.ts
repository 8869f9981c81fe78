import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences.js';

describe('splitSentences', () => {
  it('splits prose into sentences and keeps headings and tables out', () => {
    const text =
      'Knowing a turn is dead\n\nEach server registers a worker row. A turn is dead when its lease passed.\n\n| a | b | c |\n| --- | --- | --- |';
    expect(splitSentences(text)).toEqual([
      'Each server registers a worker row.',
      'A turn is dead when its lease passed.',
    ]);
  });

  it('joins wrapped lines of one paragraph and drops fragments too short or too long to quote', () => {
    expect(splitSentences('The lease is at least\ntwo minutes long. Ok.')).toEqual([
      'The lease is at least two minutes long.',
    ]);
    expect(splitSentences(`${'word '.repeat(120)}end.`)).toEqual([]);
  });

  it('quotes a sentence that mentions pipe characters; only cell separators make a table row', () => {
    expect(splitSentences('The "diff3" style adds a ||||||| marker and the original text.')).toEqual([
      'The "diff3" style adds a ||||||| marker and the original text.',
    ]);
    expect(splitSentences('name | default | meaning')).toEqual([]);
  });
});
