import { describe, expect, it } from 'vitest';
import { extractDocument } from './index.js';
import type { ExtractedDocument } from './types.js';

const extract = (source: string, fileName = 'guide.md'): Promise<ExtractedDocument> =>
  extractDocument(fileName, new TextEncoder().encode(source));

const sectionTexts = (doc: ExtractedDocument): { heading: string | null; text: string }[] =>
  doc.sections.map((section) => ({
    heading: section.heading,
    text: doc.text.slice(section.start, section.end).trim(),
  }));

describe('Markdown extraction', () => {
  it('takes the title from front matter and drops the front matter from the text', async () => {
    const doc = await extract('---\ntitle: "Helix: Design Notes"\nauthor: ops\n---\n\n# Overview\n\nBody text.\n');
    expect(doc.title).toBe('Helix: Design Notes');
    expect(doc.text).toBe('Overview\n\nBody text.');
  });

  it('reads a first line that names an Object method as text, not as a front matter delimiter', async () => {
    for (const word of ['toString', 'constructor', 'hasOwnProperty']) {
      expect((await extract(`${word}\n\nbody`)).text).toBe(`${word}\n\nbody`);
    }
  });

  it('falls back to the first level-one heading, then to the file name', async () => {
    expect((await extract('Some intro.\n\n## Minor\n\n# Major Topic\n\ntext')).title).toBe('Major Topic');
    expect((await extract('Major Topic\n===========\n\ntext')).title).toBe('Major Topic');
    expect((await extract('Just prose, no headings.', 'docs/release-notes.markdown')).title).toBe('release-notes');
    expect((await extract('---\nlayout: post\n---\nno title here', 'post.md')).title).toBe('post');
  });

  it('makes one section per heading, each starting with its heading line', async () => {
    const doc = await extract(
      'Preamble.\n\n# One\n\nFirst body.\n\n## Two ##\n\nSecond body.\n\nThree\n-----\n\nThird body.',
    );
    expect(sectionTexts(doc)).toEqual([
      { heading: null, text: 'Preamble.' },
      { heading: 'One', text: 'One\n\nFirst body.' },
      { heading: 'Two', text: 'Two\n\nSecond body.' },
      { heading: 'Three', text: 'Three\n\nThird body.' },
    ]);
    expect(doc.sections.every((section) => section.page === null)).toBe(true);
  });

  it('keeps code block content but not the fences, and never reads code as headings or emphasis', async () => {
    const doc = await extract('# Setup\n\n```bash\n# install it\nnpm install **helix**\n```\n\n~~~\n[x](y)\n~~~\n');
    expect(doc.text).toBe('Setup\n\n# install it\nnpm install **helix**\n\n[x](y)');
    expect(doc.sections.map((section) => section.heading)).toEqual(['Setup']);
  });

  it('reduces links, images, emphasis and inline code to their readable text', async () => {
    const doc = await extract(
      'See [the guide](https://example.com/a_(b) "Guide") and [refs][1], **bold**, *em*, _under_, ~~gone~~, ' +
        '`a *literal* [x](y)`, \\*escaped\\*, snake_case_name, <https://example.com>, ![diagram](d.png), ' +
        'AT&amp;T <kbd>Ctrl</kbd>.\n\n[1]: https://example.com/refs\n',
    );
    expect(doc.text).toBe(
      'See the guide and refs, bold, em, under, gone, a *literal* [x](y), *escaped*, snake_case_name, https://example.com, diagram, AT&T Ctrl.',
    );
  });

  it('turns each table row into a paragraph that names its values by column header', async () => {
    const doc = await extract(
      'Flags:\n| Flag | Meaning |\n|:-----|--------:|\n| `-v` | verbose. Loud |\n| `a\\|b` | |\nmore | x\n\nAfter.',
    );
    expect(doc.text).toBe(
      'Flags:\n\nFlag: -v; Meaning: verbose. Loud\n\nFlag: a|b\n\nFlag: more; Meaning: x\n\nAfter.',
    );
  });

  it('keeps a table whose header names nothing as its rows are written', async () => {
    const doc = await extract('| | |\n|---|---|\n| a | b |\n');
    expect(doc.text).toBe('|\na | b');
  });

  it('drops HTML comments, thematic breaks, blockquote markers and normalizes bullets', async () => {
    const doc = await extract(
      'Visible <!-- hidden -->text\n\n<!--\nhidden block\n-->\n\n***\n\n> quoted\n\n* one\n+ two\n1. three',
    );
    expect(doc.text).toBe('Visible text\n\nquoted\n\n- one\n- two\n1. three');
  });
});

/*
 * Inputs that took time quadratic in the line length (a 300 KB file of the first shape took 22.8 s).
 * Each must now come out right; vitest's timeout is what catches a regression, not a timing assertion.
 */
describe('Markdown extraction of adversarial lines (300 KB and more)', () => {
  const SIZE = 300_000;

  it('backtick runs that never close stay literal, after a pair that is still code', async () => {
    // Runs of every length from 2 up, each longer than the last, so no run (nor its tail) closes another.
    let runs = '';
    for (let length = 2; runs.length < SIZE; length += 1) runs += `${'`'.repeat(length)}x`;
    const doc = await extract(`run \`npm install\` then ${runs}`);
    expect(doc.text).toBe(`run npm install then ${runs}`);
  });

  it('a code span whose content does not end in a space keeps its leading space', async () => {
    expect((await extract(`\` ${'a'.repeat(SIZE)}\``)).text).toBe('a'.repeat(SIZE));
    expect((await extract(`a \` ${'b '.repeat(SIZE / 2)}b\``)).text).toBe(`a ${'b '.repeat(SIZE / 2)}b`);
  });

  it('comment openers that never close are literal text before the block comment the last one starts', async () => {
    // A megabyte of openers: each one used to rescan the rest of the line for "-->".
    const doc = await extract(`${'<!--'.repeat(250_000)}\nhidden\n-->\nafter`);
    expect(doc.text).toBe(`${'<!--'.repeat(249_999)}\n\nafter`);
  });

  it('a heading padded with a long run of blanks, with and without a closing run', async () => {
    const padded = await extract(`# Title${' \t'.repeat(SIZE / 2)}x\n\nbody`);
    expect(padded.title).toBe('Title x');
    const closed = await extract(`## Title${' \t'.repeat(SIZE / 2)}##${' '.repeat(SIZE)}\n\nbody`);
    expect(closed.sections.map((section) => section.heading)).toEqual(['Title']);
  });

  it('a front matter title padded with blanks', async () => {
    const doc = await extract(`---\ntitle: Padded${' '.repeat(SIZE)}x\n---\nbody`);
    expect(doc.title).toBe('Padded x');
  });

  it('a link definition whose target runs into a line separator is still dropped', async () => {
    expect((await extract(`[ref]: ${'b'.repeat(SIZE)}\u2028c\n\nbody`)).text).toBe('body');
  });
});
