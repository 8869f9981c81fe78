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

  it('keeps each list item apart, with its marker, however short, and joins an item with its continuation lines', () => {
    const text =
      'Converter types:\n- string accepts any text\n- int\n1. Create a folder\nand enter it.\n2) Activate it.\n• uuid';
    expect(splitSentences(text)).toEqual([
      'Converter types:',
      '- string accepts any text',
      '- int',
      '1. Create a folder and enter it.',
      '2) Activate it.',
      '• uuid',
    ]);
  });

  it('never takes a lone item for a heading, and drops an item with no word', () => {
    expect(splitSentences('Options\n\n- verbose\n\n- --')).toEqual(['- verbose']);
  });

  it('quotes a field line (a label, a colon, its value) and a labelled table row; a bare short line stays a heading', () => {
    expect(splitSentences("SESSION_COOKIE_NAME\n\nThe name of the cookie.\n\nDefault: 'session'")).toEqual([
      'The name of the cookie.',
      "Default: 'session'",
    ]);
    expect(splitSentences('Name: port; Default: 1522')).toEqual(['Name: port; Default: 1522']);
    expect(splitSentences('Builtin Configuration Values')).toEqual([]);
  });

  it('keeps a hyphenated word or a negative number at a line start as prose', () => {
    expect(splitSentences('The offset is\n-5 lines from here.')).toEqual(['The offset is -5 lines from here.']);
  });
});
