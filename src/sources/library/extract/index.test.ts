import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DOCUMENT_LIMITS,
  DocumentLimitError,
  extractDocument,
  ExtractionError,
  UnsupportedDocumentError,
} from './index.js';
import type { ExtractedDocument } from './types.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Sections must partition the text in order: provenance spans and page lookups rely on it. */
const expectSectionsPartitionText = (doc: ExtractedDocument): void => {
  if (doc.text === '') return;
  expect(doc.sections[0]?.start).toBe(0);
  expect(doc.sections.at(-1)?.end).toBe(doc.text.length);
  doc.sections.forEach((section, index) => {
    expect(section.start).toBeLessThanOrEqual(section.end);
    const next = doc.sections[index + 1];
    if (next !== undefined) expect(next.start).toBe(section.end);
  });
};

const expectNormalized = (text: string): void => {
  expect(text).not.toMatch(/[ \t]{2}|\t|\r|\n{3}|^\s|\s$/);
};

describe('extractDocument', () => {
  it('refuses an unsupported extension before reading the bytes', async () => {
    await expect(extractDocument('talk.pptx', encode('whatever'))).rejects.toThrow(UnsupportedDocumentError);
    await expect(extractDocument('talk.pptx', encode('whatever'))).rejects.toThrow(/"\.pptx"/);
  });

  it.each(['image.md', 'image.txt', 'image.html'])(
    'refuses binary content behind a textual name (%s)',
    async (fileName) => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
      await expect(extractDocument(fileName, png)).rejects.toThrow(ExtractionError);
      await expect(extractDocument(fileName, png)).rejects.toMatchObject({ code: 'extraction_failed', fileName });
    },
  );

  it('only sniffs the first 8 KiB for binary content', async () => {
    const bytes = new Uint8Array(9 * 1024).fill(0x61);
    bytes[8 * 1024 + 10] = 0;
    await expect(extractDocument('log.txt', bytes)).resolves.toMatchObject({ mediaType: 'text/plain' });
  });

  it('strips a UTF-8 byte order mark so it does not leak into the title', async () => {
    const doc = await extractDocument('bom.md', new Uint8Array([0xef, 0xbb, 0xbf, ...encode('# Título\n\nçà')]));
    expect(doc.title).toBe('Título');
    expect(doc.text).toBe('Título\n\nçà');
  });

  it('collapses spaces and tabs, keeps one blank line between paragraphs, and trims', async () => {
    const doc = await extractDocument(
      'a.txt',
      encode('  \t first \t  line  \r\n   second\u00a0line\r\n\r\n\r\n\n\t third\n\n  '),
    );
    expect(doc.text).toBe('first line\nsecond line\n\nthird');
  });

  const textual = fc.string({
    unit: fc.constantFrom(
      'a',
      'B',
      ' ',
      '\t',
      '\n',
      '\r',
      '#',
      '*',
      '_',
      '`',
      '-',
      '|',
      '[',
      ']',
      '(',
      ')',
      '<',
      '>',
      '=',
      '~',
      'é',
      '😀',
      '\u00a0',
    ),
  });

  it('always yields normalized text and sections that partition it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(textual, fc.constantFrom('x.md', 'x.txt', 'x.html'), async (source, fileName) => {
        const doc = await extractDocument(fileName, encode(source));
        expectNormalized(doc.text);
        expectSectionsPartitionText(doc);
        expect(doc.title).not.toBe('');
        for (const section of doc.sections) expect(section.heading).not.toBe('');
      }),
      { numRuns: 300 },
    );
  });

  it.each(['x.md', 'x.txt', 'x.html'])(
    'refuses %s whose normalized text passes the character limit, and accepts it at the limit',
    async (fileName) => {
      // Whitespace collapses before counting: 3,000 characters of source make 1,999 of text.
      const source = 'a '.repeat(1_000).replace(/ /g, '\t ');
      const limits = (textChars: number) => ({ ...DEFAULT_DOCUMENT_LIMITS, textChars });
      const text = (await extractDocument(fileName, encode(source), limits(2_000))).text;
      expect(text).toHaveLength(1_999);
      const attempt = extractDocument(fileName, encode(source), limits(1_998));
      await expect(attempt).rejects.toThrow(DocumentLimitError);
      await expect(attempt).rejects.toMatchObject({ limit: 'textChars', maximum: 1_998, reached: 1_999, fileName });
    },
  );
});
