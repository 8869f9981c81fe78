import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractDocument } from './index.js';
import { ExtractionError } from './types.js';

/** Builds a PDF with one page per entry; lines of a page are separated by '\n'. */
const buildPdf = async (pages: readonly string[], title?: string): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create();
  if (title !== undefined) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage();
    if (text !== '') page.drawText(text, { x: 50, y: 700, size: 12, lineHeight: 16, font });
  }
  return pdf.save();
};

describe('PDF extraction', () => {
  it('reads every page into its own section with its page number', async () => {
    const doc = await extractDocument('paper.pdf', await buildPdf(['Abstract\nWe study recall.', 'Results   are good.'], 'On Recall'));
    expect(doc.mediaType).toBe('application/pdf');
    expect(doc.text).toBe('Abstract\nWe study recall.\n\nResults are good.');
    expect(doc.sections.map((section) => ({ page: section.page, heading: section.heading, text: doc.text.slice(section.start, section.end).trim() }))).toEqual([
      { page: 1, heading: null, text: 'Abstract\nWe study recall.' },
      { page: 2, heading: null, text: 'Results are good.' },
    ]);
  });

  it('takes the title from the metadata, then the first line, then the file name', async () => {
    expect((await extractDocument('a.pdf', await buildPdf(['First line'], 'Metadata Title'))).title).toBe('Metadata Title');
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
});
