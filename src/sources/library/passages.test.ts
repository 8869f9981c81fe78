import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractDocument } from './extract/index.js';
import type { ExtractedDocument, Section } from './extract/types.js';
import { sentenceBreaks, splitPassages, type Passage } from './passages.js';

const plainDoc = (text: string, sections?: readonly Section[]): ExtractedDocument => ({
  title: 't',
  mediaType: 'text/plain',
  text,
  sections: sections ?? [{ heading: null, page: null, start: 0, end: text.length }],
});

const paragraph = (label: string, length: number): string => `${label} ${'x'.repeat(length - label.length - 2)}.`;

/** The invariants every caller relies on, whatever the document. */
const expectValidPassages = (doc: ExtractedDocument, passages: readonly Passage[], maxChars: number): void => {
  passages.forEach((passage, index) => {
    expect(passage.ordinal).toBe(index);
    // Provenance spans cite `doc.text` by offset; the passage must be exactly that slice.
    expect(doc.text.slice(passage.start, passage.end)).toBe(passage.text);
    expect(passage.text.length).toBeLessThanOrEqual(maxChars);
    expect(passage.text).toMatch(/[\p{L}\p{N}]/u);
    expect(passage.text).toBe(passage.text.trim());
    const owner = doc.sections.find((section) => section.start <= passage.start && passage.end <= section.end);
    expect(owner, `passage ${index} crosses a section boundary`).toBeDefined();
    expect([passage.heading, passage.page]).toEqual([owner?.heading, owner?.page]);
    const previous = passages[index - 1];
    if (previous !== undefined) expect(passage.start).toBeGreaterThanOrEqual(previous.end);
  });
};

describe('splitPassages', () => {
  it('keeps a section label (a heading, a definition term) with the text it names, up to the maximum', () => {
    const description = paragraph('When', 900);
    const doc = plainDoc(`gc.auto\n\n${description}`, [
      { heading: 'Variables › gc.auto', page: null, start: 0, end: 909 },
    ]);
    const passages = splitPassages(doc);
    expect(passages.map((passage) => passage.text)).toEqual([`gc.auto\n\n${description}`]);
    expectValidPassages(doc, passages, 1200);
    // Past the maximum the label cannot join, and the maximum holds.
    const long = plainDoc(`gc.auto\n\n${paragraph('When', 1195)}`);
    expect(splitPassages(long).map((passage) => passage.text.slice(0, 7))).toEqual(['gc.auto', 'When xx']);
  });

  it('never cuts a table row in two, in HTML or Markdown, unless the row alone passes the maximum', async () => {
    const cell = (row: number): string => `Row ${row} says this. ${'word '.repeat(40).trim()}.`;
    const rows = Array.from({ length: 12 }, (_, row) => row);
    const html = `<table><tr><th>Key</th><th>Meaning</th></tr>${rows.map((row) => `<tr><td>k${row}</td><td>${cell(row)}</td></tr>`).join('')}</table>`;
    const markdown = `| Key | Meaning |\n|---|---|\n${rows.map((row) => `| k${row} | ${cell(row)} |`).join('\n')}\n`;
    const expected = rows.map((row) => `Key: k${row}; Meaning: ${cell(row)}`);
    for (const [name, source] of [
      ['t.html', html],
      ['t.md', markdown],
    ] as const) {
      const doc = await extractDocument(name, new TextEncoder().encode(source));
      const passages = splitPassages(doc, { targetChars: 500, maxChars: 600 });
      expectValidPassages(doc, passages, 600);
      expect(passages.length).toBeGreaterThan(1);
      expect(passages.flatMap((passage) => passage.text.split('\n\n'))).toEqual(expected);
    }
  });

  // Issue 28: a list's lead-in and its items landed in different passages.
  describe('lists and lead-ins', () => {
    const items = (count: number, length: number): string =>
      Array.from({ length: count }, (_, index) => `- ${paragraph(`item${index}`, length)}`).join('\n');

    it('keeps a lead-in with the list it introduces, ending the passage before the lead-in when both do not fit', () => {
      const prose = paragraph('Prose', 600);
      const list = items(4, 100);
      const doc = plainDoc(`${prose}\n\nThe following are installed:\n\n${list}`);
      const passages = splitPassages(doc);
      expect(passages.map((passage) => passage.text)).toEqual([prose, `The following are installed:\n\n${list}`]);
      expectValidPassages(doc, passages, 1200);
      // A paragraph right before a list leads into it, colon or not.
      const plain = plainDoc(`${prose}\n\nThese are installed.\n\n${list}`);
      expect(splitPassages(plain).map((passage) => passage.text.slice(0, 20))).toEqual([
        prose.slice(0, 20),
        'These are installed.',
      ]);
    });

    it('keeps a heading, a lead-in and a list in one passage up to the maximum', () => {
      const list = items(9, 120);
      const doc = plainDoc(`Dependencies\n\nInstalled with it:\n\n${list}`);
      expect(doc.text.length).toBeGreaterThan(700);
      expect(splitPassages(doc).map((passage) => passage.text)).toEqual([doc.text]);
    });

    it('cuts a list longer than the maximum between its items, the lead-in with the first part', () => {
      const list = items(30, 100);
      const doc = plainDoc(`Intro paragraph.\n\nSteps:\n\n${list}\n\nAfter the list.`);
      const passages = splitPassages(doc);
      expectValidPassages(doc, passages, 1200);
      // The lead-in and its list are glued like one long paragraph: the text before them packs apart.
      expect(passages[0]?.text).toBe('Intro paragraph.');
      expect(passages[1]?.text).toMatch(/^Steps:\n\n- item0 /);
      // Every item is whole, and each part of the list fills its passage past the target.
      const parts = passages.slice(1, -1);
      for (const part of parts) expect(part.text.length).toBeGreaterThan(700);
      const written = passages.flatMap((passage) => passage.text.split('\n').filter((line) => line.startsWith('- ')));
      expect(written).toEqual(list.split('\n'));
      expect(passages.at(-1)?.text).toMatch(/After the list\.$/);
    });

    it('keeps what follows a paragraph ending in a colon with it, up to the maximum', () => {
      const prose = paragraph('Prose', 400);
      const code = `$ mkdir project ${'x'.repeat(500)}`;
      const doc = plainDoc(`${prose}\n\nCreate a folder:\n\n${code}`);
      expect(splitPassages(doc).map((passage) => passage.text)).toEqual([prose, `Create a folder:\n\n${code}`]);
    });

    it('in a paragraph cut at its sentences (a PDF page), takes only a sentence ending in a colon for a lead-in', () => {
      const sentence = (label: string, length: number, end = '.'): string =>
        `${label} ${'x'.repeat(length - label.length - 2)}${end}`;
      const item = `• ${sentence('Item', 248)}`;
      const page = (lead: string): string => `${sentence('A1', 140)} ${sentence('A2', 140)} ${lead}\n${item}`;
      const options = { targetChars: 300, maxChars: 400 };
      // The sentence before the bullet ends the previous item as often as it leads into this one.
      const plain = plainDoc(page(sentence('A3', 100)));
      expect(splitPassages(plain, options).map((passage) => passage.text.slice(0, 2))).toEqual(['A1', 'A3', '• ']);
      const colon = plainDoc(page(sentence('A3', 100, ':')));
      expect(splitPassages(colon, options).map((passage) => passage.text.slice(0, 2))).toEqual(['A1', 'A3']);
      expectValidPassages(colon, splitPassages(colon, options), 400);
    });

    it('splits a list of 300 KB of items into valid passages', () => {
      const doc = plainDoc(`Lead:\n\n${'- a\n'.repeat(75_000)}- z`);
      const passages = splitPassages(doc);
      expectValidPassages(doc, passages, 1200);
      expect(passages[0]?.text).toMatch(/^Lead:\n\n- a\n/);
      expect(passages.map((passage) => passage.text).join('\n')).toBe(doc.text);
    });
  });

  it('packs whole paragraphs up to the target size', () => {
    const paragraphs = [paragraph('p1', 300), paragraph('p2', 300), paragraph('p3', 300), paragraph('p4', 100)];
    const doc = plainDoc(paragraphs.join('\n\n'));
    const passages = splitPassages(doc);
    expect(passages.map((passage) => passage.text)).toEqual([
      `${paragraphs[0]}\n\n${paragraphs[1]}`,
      `${paragraphs[2]}\n\n${paragraphs[3]}`,
    ]);
    expectValidPassages(doc, passages, 1200);
  });

  it('splits a paragraph longer than maxChars at sentence ends', () => {
    const sentences = Array.from({ length: 30 }, (_, index) => `Sentence number ${index} says something useful here.`);
    const doc = plainDoc(sentences.join(' '));
    const passages = splitPassages(doc, { targetChars: 200, maxChars: 300 });
    expect(passages.length).toBeGreaterThan(1);
    for (const passage of passages) expect(passage.text).toMatch(/^Sentence number \d+.*\.$/s);
    expect(passages.map((passage) => passage.text).join(' ')).toBe(doc.text);
    expectValidPassages(doc, passages, 300);
  });

  it('hard-cuts text with no boundaries at all, keeping surrogate pairs whole', () => {
    // U+20000 is a CJK ideograph outside the BMP: a letter stored as a surrogate pair.
    const doc = plainDoc('\u{20000}'.repeat(50) + 'a'.repeat(101));
    const passages = splitPassages(doc, { targetChars: 25, maxChars: 25 });
    expect(passages.map((passage) => passage.text).join('')).toBe(doc.text);
    for (const passage of passages) expect(passage.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    expectValidPassages(doc, passages, 25);
  });

  it('never packs across a section boundary and carries each section’s heading and page', () => {
    const text = 'Page one text.\n\nPage two text.';
    const doc: ExtractedDocument = {
      ...plainDoc(text),
      mediaType: 'application/pdf',
      sections: [
        { heading: null, page: 1, start: 0, end: 16 },
        { heading: null, page: 2, start: 16, end: text.length },
      ],
    };
    expect(splitPassages(doc)).toEqual([
      { ordinal: 0, text: 'Page one text.', start: 0, end: 14, heading: null, page: 1 },
      { ordinal: 1, text: 'Page two text.', start: 16, end: text.length, heading: null, page: 2 },
    ]);
  });

  it('drops passages with nothing to search for', () => {
    const doc = plainDoc('* * *\n\n---', undefined);
    expect(splitPassages(doc, { targetChars: 3, maxChars: 5 })).toEqual([]);
    expect(splitPassages(plainDoc(''))).toEqual([]);
  });

  it('rejects sizes that cannot be honoured', () => {
    const doc = plainDoc('text');
    expect(() => splitPassages(doc, { maxChars: 0 })).toThrow(RangeError);
    expect(() => splitPassages(doc, { targetChars: 500, maxChars: 400 })).toThrow(RangeError);
    expect(() => splitPassages(doc, { targetChars: 1.5 })).toThrow(RangeError);
    // A smaller maxChars alone lowers the default target rather than failing.
    expect(splitPassages(doc, { maxChars: 100 })).toHaveLength(1);
  });

  const token = fc.oneof(
    fc.constantFrom(
      ' ',
      '  ',
      '\n',
      '\n\n',
      '\n \n',
      '\t',
      '. ',
      '! ',
      '? ',
      '。',
      '…',
      '"',
      ')',
      '-',
      '😀',
      'é',
      ':',
      '\n- ',
      '\n1. ',
    ),
    fc.stringMatching(/^[a-z0-9]{1,12}$/),
    fc.string({ minLength: 40, maxLength: 400, unit: fc.constantFrom('a', 'b', '1', '😀') }),
  );
  const arbitraryDoc = fc
    .array(token, { maxLength: 300 })
    .map((tokens) => tokens.join(''))
    .chain((text) =>
      fc.record({
        text: fc.constant(text),
        cuts: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 6 }),
        pages: fc.boolean(),
      }),
    )
    .map(({ text, cuts, pages }): ExtractedDocument => {
      const bounds = [0, ...cuts.filter((cut) => cut < text.length).sort((a, b) => a - b), text.length];
      const sections = bounds.slice(1).map((end, index) => ({
        heading: pages ? null : `Heading ${index}`,
        page: pages ? index + 1 : null,
        start: bounds[index] ?? 0,
        end,
      }));
      return plainDoc(text, sections);
    });
  const sizes = fc
    .integer({ min: 1, max: 300 })
    .chain((targetChars) =>
      fc.record({ targetChars: fc.constant(targetChars), maxChars: fc.integer({ min: targetChars, max: 600 }) }),
    );

  it('keeps every passage an exact, bounded slice of one section (property)', () => {
    fc.assert(
      fc.property(arbitraryDoc, sizes, (doc, options) => {
        expectValidPassages(doc, splitPassages(doc, options), options.maxChars);
      }),
      { numRuns: 500 },
    );
  });

  it('loses no searchable character (property)', () => {
    fc.assert(
      fc.property(arbitraryDoc, sizes, (doc, options) => {
        const passages = splitPassages(doc, options);
        for (const match of doc.text.matchAll(/[\p{L}\p{N}]/gu)) {
          expect(passages.some((passage) => passage.start <= match.index && match.index < passage.end)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('holds the span invariant on extracted Markdown documents (property)', async () => {
    const line = fc.oneof(
      fc.constantFrom(
        '',
        '# Title',
        '## Sub *section*',
        '```',
        'Setext',
        '====',
        '---',
        '| a | b |',
        '|---|---|',
        '> quote',
        '- item',
      ),
      fc.stringMatching(/^[A-Za-z ,.*_`[\]()]{1,200}$/),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 60 }), sizes, async (lines, options) => {
        const doc = await extractDocument('generated.md', new TextEncoder().encode(lines.join('\n')));
        expectValidPassages(doc, splitPassages(doc, options), options.maxChars);
      }),
      { numRuns: 200 },
    );
  });

  it('finds the sentence breaks the former lookbehind regex found (property)', () => {
    const REFERENCE = /(?<=[.!?…]["'”’)\]]*)\s+|(?<=[。！？])\s*(?=\S)/gu;
    const text = fc.array(
      fc.constantFrom('.', '!', '?', '…', '"', "'", '”', '’', ')', ']', '。', '！', '？', ' ', '\n', 'a'),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(text, (pieces) => {
        const sample = pieces.join('');
        const expected = [...sample.matchAll(REFERENCE)].map((match) => ({
          start: match.index,
          end: match.index + match[0].length,
        }));
        expect([...sentenceBreaks(sample)]).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('splits long runs of closing marks, blanks and CJK stops (300 KB each) into valid passages', () => {
    // Each shape used to take time quadratic in its length (a lookbehind re-reading the run of
    // closers from every position, or /\s*\n\s*/ re-reading a run of blanks).
    for (const sample of [
      `End.${')'.repeat(300_000)} next`,
      `"${'"'.repeat(300_000)} next`,
      `a${' '.repeat(300_000)}b`,
      `a${'！]'.repeat(150_000)}`,
    ]) {
      const doc = plainDoc(sample);
      const passages = splitPassages(doc);
      expectValidPassages(doc, passages, 1200);
      expect(passages.map((passage) => passage.text).join('')).toMatch(/^(End\.|a|")/);
    }
  });
});
