import { createDeflate } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, StandardFonts } from 'pdf-lib';

/** A PDF with one page per entry; lines of a page are separated by '\n'. */
export const buildTextPdf = async (pages: readonly string[], title?: string): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create();
  if (title !== undefined) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage();
    if (text !== '') page.drawText(text, { x: 50, y: 700, size: 12, lineHeight: 16, font });
  }
  return pdf.save();
};

/** A PDF whose lines are set in the given type sizes (headings larger than body text); one array per page. */
export const buildStyledPdf = async (
  pages: readonly (readonly { readonly text: string; readonly size: number }[])[],
): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage();
    let y = 760;
    for (const line of lines) {
      y -= line.size * 1.6;
      page.drawText(line.text, { x: 50, y, size: line.size, font });
    }
  }
  return pdf.save();
};

/** zlib data for `unit` repeated until `totalBytes`, compressed as it is produced so the expanded bytes never exist at once. */
const deflateRepeated = async (unit: Uint8Array, totalBytes: number): Promise<Buffer> => {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const block = Buffer.concat(Array.from({ length: Math.max(1, Math.floor(65_536 / unit.length)) }, () => unit));
  for (let written = 0; written < totalBytes; written += block.length) {
    if (!deflate.write(block.subarray(0, Math.min(block.length, totalBytes - written))))
      await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat(chunks);
};

/**
 * The decompression bomb the audit used: one page whose FlateDecode content stream draws the same
 * line of text over and over, `expandedBytes` of it, in a file a few hundred times smaller.
 */
export const buildFlateBombPdf = async (expandedBytes: number): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage();
  page.drawText('Quarterly report', { x: 50, y: 750, size: 12, font });
  const fontName = page.node.Resources()?.lookup(PDFName.of('Font'), PDFDict).keys()[0]?.asString() ?? '/F1';
  const line = new TextEncoder().encode(
    `BT ${fontName} 12 Tf 50 700 Td (All work and no play makes Jack a dull boy.) Tj ET\n`,
  );
  const data = await deflateRepeated(line, expandedBytes);
  const dict = pdf.context.obj({ Filter: 'FlateDecode', Length: PDFNumber.of(data.length) }) as PDFDict;
  page.node.set(PDFName.of('Contents'), pdf.context.register(PDFRawStream.of(dict, data)));
  return pdf.save();
};
