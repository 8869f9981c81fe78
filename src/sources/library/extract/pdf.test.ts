import { deflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildFlateBombPdf, buildStyledPdf, buildTextPdf as buildPdf } from '../../../../test/support/pdfs.js';
import { extractDocument, type ExtractionLimits } from './index.js';
import { DEFAULT_DOCUMENT_LIMITS, DocumentLimitError } from './limits.js';
import { ExtractionError } from './types.js';

const MIB = 1024 * 1024;
const limited = (limits: Partial<ExtractionLimits>): ExtractionLimits => ({ ...DEFAULT_DOCUMENT_LIMITS, ...limits });

/** The DocumentLimitError `attempt` rejects with. */
const refusal = async (attempt: Promise<unknown>): Promise<DocumentLimitError> => {
  const error: unknown = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DocumentLimitError);
  return error as DocumentLimitError;
};

describe('PDF extraction', () => {
  it('reads every page into its own section with its page number', async () => {
    const doc = await extractDocument(
      'paper.pdf',
      await buildPdf(['Abstract\nWe study recall.', 'Results   are good.'], 'On Recall'),
    );
    expect(doc.mediaType).toBe('application/pdf');
    expect(doc.text).toBe('Abstract\nWe study recall.\n\nResults are good.');
    expect(
      doc.sections.map((section) => ({
        page: section.page,
        heading: section.heading,
        text: doc.text.slice(section.start, section.end).trim(),
      })),
    ).toEqual([
      { page: 1, heading: null, text: 'Abstract\nWe study recall.' },
      { page: 2, heading: null, text: 'Results are good.' },
    ]);
  });

  it('reads headings from type sizes: each section carries its heading path, across pages too', async () => {
    const body = (text: string) => ({ text, size: 10 });
    const doc = await extractDocument(
      'manual.pdf',
      await buildStyledPdf([
        [
          { text: 'Collector Manual', size: 20 },
          body('The collector gathers metrics.'),
          { text: '2 Configuration', size: 16 },
          body('Settings live in collector.toml.'),
          { text: '2.1 batchSize', size: 13 },
          body('How many records one flush sends.'),
        ],
        [body('The default value is 500.'), { text: '2.2 flushInterval', size: 13 }, body('Defaults to 30 seconds.')],
      ]),
    );
    expect(
      doc.sections
        .map((section) => ({
          page: section.page,
          heading: section.heading,
          text: doc.text.slice(section.start, section.end).trim(),
        }))
        .filter((section) => section.text !== ''),
    ).toEqual([
      { page: 1, heading: 'Collector Manual', text: 'Collector Manual\nThe collector gathers metrics.' },
      {
        page: 1,
        heading: 'Collector Manual › 2 Configuration',
        text: '2 Configuration\nSettings live in collector.toml.',
      },
      {
        page: 1,
        heading: 'Collector Manual › 2 Configuration › 2.1 batchSize',
        text: '2.1 batchSize\nHow many records one flush sends.',
      },
      { page: 2, heading: 'Collector Manual › 2 Configuration › 2.1 batchSize', text: 'The default value is 500.' },
      {
        page: 2,
        heading: 'Collector Manual › 2 Configuration › 2.2 flushInterval',
        text: '2.2 flushInterval\nDefaults to 30 seconds.',
      },
    ]);
  });

  it('finds no heading in a document set in one size, nor in a large line that ends like a sentence', async () => {
    const doc = await extractDocument(
      'memo.pdf',
      await buildStyledPdf([
        [
          { text: 'Note that this is large.', size: 16 },
          { text: 'Body text here', size: 10 },
        ],
      ]),
    );
    expect(doc.sections.map((section) => section.heading)).toEqual([null]);
  });

  // Issue 28: "Chapter 6: Programming 42" was glued to the first sentence of every page of its chapter.
  it('drops running headers and page numbers from the pages, and keeps their text and page numbers', async () => {
    const steps = ['Install the package.', 'Set the search path.', 'Run the tutorial.', 'Read the index.'];
    const doc = await extractDocument(
      'manual.pdf',
      await buildStyledPdf(
        steps.map((step, index) => [
          { text: `Chapter 2: Setup ${index + 10}`, size: 10 },
          { text: step, size: 10 },
          { text: 'Every page has prose of its own.', size: 10 },
          { text: String(index + 10), size: 10 },
        ]),
      ),
    );
    expect(doc.text).not.toMatch(/Chapter 2|\b1[0-3]\b/);
    expect(doc.sections.map((section) => [section.page, doc.text.slice(section.start, section.end).trim()])).toEqual(
      steps.map((step, index) => [index + 1, `${step}\nEvery page has prose of its own.`]),
    );
  });

  it('takes the title from the metadata, then the first line, then the file name', async () => {
    expect((await extractDocument('a.pdf', await buildPdf(['First line'], 'Metadata Title'))).title).toBe(
      'Metadata Title',
    );
    expect((await extractDocument('a.pdf', await buildPdf(['First line\nmore'], '  '))).title).toBe('First line');
    expect((await extractDocument('scans/blank-form.pdf', await buildPdf(['']))).title).toBe('blank-form');
  });

  it('keeps a blank page addressable as an empty section so later page numbers stay right', async () => {
    const doc = await extractDocument('a.pdf', await buildPdf(['One', '', 'Three']));
    expect(doc.text).toBe('One\n\nThree');
    expect(doc.sections.map((section) => [section.page, doc.text.slice(section.start, section.end).trim()])).toEqual([
      [1, 'One'],
      [2, ''],
      [3, 'Three'],
    ]);
  });

  it('leaves the caller’s bytes intact (pdf.js would otherwise detach the buffer)', async () => {
    const bytes = await buildPdf(['Hello']);
    const copy = bytes.slice();
    await extractDocument('a.pdf', bytes);
    expect(bytes).toEqual(copy);
  });

  it('reports a corrupt or mislabelled PDF as an ExtractionError naming the file', async () => {
    const valid = await buildPdf(['Hello']);
    const truncated = valid.slice(0, 40);
    for (const bytes of [truncated, new TextEncoder().encode('this is not a pdf')]) {
      const attempt = extractDocument('reports/broken.pdf', bytes);
      await expect(attempt).rejects.toThrow(ExtractionError);
      await expect(attempt).rejects.toThrow(/broken\.pdf/);
    }
  });

  it('refuses a FlateDecode bomb while measuring it, before pdf.js inflates any of it', async () => {
    // 64 MiB of content in a file of about a quarter of a megabyte.
    const bomb = await buildFlateBombPdf(64 * MIB);
    expect(bomb.length).toBeLessThan(MIB);
    const error = await refusal(extractDocument('bomb.pdf', bomb, limited({ pdfExpandedBytes: 4 * MIB })));
    expect(error).toMatchObject({
      code: 'document_limit_exceeded',
      limit: 'pdfExpandedBytes',
      maximum: 4 * MIB,
      fileName: 'bomb.pdf',
    });
    // Stopped within one decompressor chunk of the limit: a sixteenth of the stream was ever inflated.
    expect(error.reached).toBeGreaterThan(4 * MIB);
    expect(error.reached).toBeLessThan(4 * MIB + 64 * 1024);
    expect(error.message).toBe(
      `Refused "bomb.pdf": more than ${4 * MIB} bytes of decompressed PDF streams (the pdfExpandedBytes limit; stopped at ${error.reached})`,
    );
  });

  it('counts text across pages as the assembled document will, refusing within a page of the limit', async () => {
    // A letter of its own on every page: lines that differ only in their numbers would be running lines.
    const page = (number: number): string =>
      Array.from(
        { length: 10 },
        () => `Page ${number} (${'abcdefghijklmnopqrstuvwxyz'[number % 26]}) has a line of prose about thermal drift.`,
      ).join('\n');
    const pdf = await buildPdf(Array.from({ length: 30 }, (_, index) => page(index + 1)));
    const whole = await extractDocument('long.pdf', pdf);
    expect(whole.text.length).toBeGreaterThan(14_000);
    const error = await refusal(extractDocument('long.pdf', pdf, limited({ textChars: 3_000 })));
    expect(error).toMatchObject({ limit: 'textChars', maximum: 3_000 });
    // At most the page that crossed the limit was read past it: about 600 characters a page.
    expect(error.reached).toBeGreaterThan(3_000);
    expect(error.reached).toBeLessThan(3_000 + 700);
  });

  it('stops a single page that expands to megabytes of text at the character limit', async () => {
    const error = await refusal(
      extractDocument('page-bomb.pdf', await buildFlateBombPdf(8 * MIB), limited({ textChars: 20_000 })),
    );
    expect(error.limit).toBe('textChars');
    // pdf.js hands text over in chunks of a few thousand characters; the page holds about 5 million.
    expect(error.reached).toBeLessThan(200_000);
  });

  it('refuses a PDF with more pages than the limit before reading any of them', async () => {
    const error = await refusal(
      extractDocument('three.pdf', await buildPdf(['One', 'Two', 'Three']), limited({ pdfPages: 2 })),
    );
    expect(error).toMatchObject({ limit: 'pdfPages', maximum: 2, reached: 3 });
  });

  it('accepts a document exactly at its limits', async () => {
    const pdf = await buildPdf(['One', 'Two']);
    const doc = await extractDocument('two.pdf', pdf, limited({ pdfPages: 2, textChars: 'One\n\nTwo'.length }));
    expect(doc.text).toBe('One\n\nTwo');
  });

  it('reads pages whose content streams use the other measured filters, as pdf.js decodes them', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage();
    page.drawText('placeholder', { x: 50, y: 700, font });
    const fontName = page.node.Resources()?.lookup(PDFName.of('Font'), PDFDict).keys()[0]?.asString() ?? '/F1';
    const content = `BT ${fontName} 12 Tf 50 700 Td (Encoded in two stages) Tj ET`;
    const hexOfDeflated = `${Buffer.from(deflateSync(content)).toString('hex')}>`;
    const dict = pdf.context.obj({ Filter: ['ASCIIHexDecode', 'FlateDecode'] }) as PDFDict;
    page.node.set(
      PDFName.of('Contents'),
      pdf.context.register(PDFRawStream.of(dict, new TextEncoder().encode(hexOfDeflated))),
    );
    expect((await extractDocument('chained.pdf', await pdf.save())).text).toBe('Encoded in two stages');
  });

  it('refuses an encrypted PDF, whose streams cannot be measured before pdf.js decrypts them', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage();
    pdf.context.trailerInfo.Encrypt = pdf.context.register(pdf.context.obj({ Filter: 'Standard', V: 1, R: 2 }));
    const attempt = extractDocument('locked.pdf', await pdf.save({ useObjectStreams: false }));
    await expect(attempt).rejects.toThrow(ExtractionError);
    await expect(attempt).rejects.toThrow(
      'Cannot extract text from "locked.pdf": the PDF is encrypted, so how far its compressed streams expand cannot be measured',
    );
  });
});
