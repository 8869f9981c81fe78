import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { measurePdfExpansion } from './pdfExpansion.js';

/*
 * The measurement reads raw file bytes, so these files need no cross-reference table: each is a
 * run of objects written the way an attacker would, to make the measurement and pdf.js disagree.
 */
const CONTENT = new TextEncoder().encode('BT /F1 12 Tf 72 700 Td (measured) Tj ET\n'.repeat(250));
const SIZE = CONTENT.length;
const MIB = 1024 * 1024;

const bytesOf = (...parts: (string | Uint8Array)[]): Uint8Array =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part)));

/** `%PDF` header, one stream object with the given dictionary text, and the usual tail. */
const fileWith = (
  dictionary: string,
  data: Uint8Array = deflateSync(CONTENT),
  header = '1 0 obj\n',
  keyword = '\nstream\n',
): Uint8Array =>
  bytesOf('%PDF-1.7\n', header, dictionary, keyword, data, '\nendstream\nendobj\ntrailer\n<< /Root 2 0 R >>\n%%EOF\n');

const measure = (bytes: Uint8Array, budget = 64 * MIB) => measurePdfExpansion(bytes, budget);

describe('measurePdfExpansion', () => {
  it('counts what a FlateDecode stream inflates to', async () => {
    expect(await measure(fileWith(`<< /Length 99 /Filter /FlateDecode >>`))).toEqual({
      outcome: 'within',
      bytes: SIZE,
    });
  });

  it.each([
    ['the /F key pdf.js reads before /Filter', `<< /F /FlateDecode >>`],
    ['a #xx escape in the filter name', `<< /Filter /Fl#61teDecode >>`],
    ['an abbreviated filter name', `<< /Filter /Fl >>`],
    ['comments between every token', `<< %a\n/Filter %b\n/FlateDecode %c\n>> %d`],
    ['junk where a key belongs, skipped token by token', `<< 5 (junk) [ /Filter /FlateDecode ] >>`],
    [
      'a decoy /Filter inside a nested dictionary',
      `<< /DecodeParms << /Filter /ASCIIHexDecode >> /Filter /FlateDecode >>`,
    ],
    ['a decoy /Filter inside a string', `<< /Note (/Filter /ASCIIHexDecode) /Filter /FlateDecode >>`],
    ['a later duplicate key, which wins', `<< /Filter /ASCIIHexDecode /Filter /FlateDecode >>`],
    ['an unknown filter first, which passes data through', `<< /Filter [ /Identity /FlateDecode ] >>`],
  ])('sees the filter through %s', async (_trick, dictionary) => {
    expect(await measure(fileWith(dictionary))).toEqual({ outcome: 'within', bytes: SIZE });
  });

  it.each([
    ['"obj" followed by the object number', '1 0 obj1\n'],
    ['a number run into "obj"', '1 0obj'],
    ['no object number at all', 'obj '],
  ])('finds a stream object behind %s', async (_form, header) => {
    expect(await measure(fileWith(`<< /Filter /FlateDecode >>`, undefined, header))).toEqual({
      outcome: 'within',
      bytes: SIZE,
    });
  });

  it('decodes to the end of the compressed data, whatever /Length claims', async () => {
    expect(await measure(fileWith(`<< /Length 5 /Filter /FlateDecode >>`))).toEqual({ outcome: 'within', bytes: SIZE });
  });

  it('takes the data from the line after "stream", as pdf.js does', async () => {
    expect(await measure(fileWith(`<< /Filter /FlateDecode >>`, undefined, '1 0 obj\n', ' %c\nstream  \r\n'))).toEqual({
      outcome: 'within',
      bytes: SIZE,
    });
  });

  it('counts every decoding stage of a chain', async () => {
    const ascii85 = Buffer.from(deflateSync(CONTENT)).toString('hex');
    const result = await measure(fileWith(`<< /Filter [ /ASCIIHexDecode /FlateDecode ] >>`, bytesOf(ascii85, '>')));
    expect(result).toEqual({ outcome: 'within', bytes: ascii85.length / 2 + SIZE });
  });

  it('stops an image codec chain at the codec: text extraction never decodes images', async () => {
    expect(
      await measure(fileWith(`<< /Subtype /Image /Filter /DCTDecode >>`, bytesOf('\xff\xd8 not really a jpeg'))),
    ).toEqual({ outcome: 'within', bytes: 0 });
  });

  it('counts the row pdf.js allocates for a predictor, however little data there is', async () => {
    const result = await measure(
      fileWith(`<< /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 100000000 >> >>`),
      8 * MIB,
    );
    expect(result.outcome).toBe('exceeded');
  });

  it('stops at the budget without inflating the rest of a bomb', async () => {
    const bomb = deflateSync(Buffer.alloc(256 * MIB, 'x'));
    const result = await measure(fileWith(`<< /Filter /FlateDecode >>`, bomb), MIB);
    expect(result.outcome).toBe('exceeded');
    expect(result.outcome === 'exceeded' && result.reached).toBeLessThan(MIB + 64 * 1024);
  });

  it('adds up every stream, so many small bombs are one large one', async () => {
    const piece = deflateSync(Buffer.alloc(300 * 1024, 'x'));
    const objects = Array.from({ length: 8 }, (_, index) =>
      bytesOf(`${index + 1} 0 obj\n<< /Filter /FlateDecode >>\nstream\n`, piece, '\nendstream\nendobj\n'),
    );
    expect((await measure(bytesOf('%PDF-1.7\n', ...objects), MIB)).outcome).toBe('exceeded');
    expect(await measure(bytesOf('%PDF-1.7\n', ...objects), 8 * MIB)).toEqual({
      outcome: 'within',
      bytes: 8 * 300 * 1024,
    });
  });

  it.each([
    ['an indirect /Filter', `<< /Filter 5 0 R >>`, "a stream's /Filter is an indirect reference"],
    [
      'an indirect filter name in a chain',
      `<< /Filter [ 5 0 R ] >>`,
      "a stream's filter name is an indirect reference",
    ],
    [
      'indirect /DecodeParms',
      `<< /Filter /FlateDecode /DecodeParms 6 0 R >>`,
      "a stream's /DecodeParms is an indirect reference",
    ],
    [
      'an LZW /EarlyChange that is not a number',
      `<< /Filter /LZWDecode /DecodeParms << /EarlyChange /One >> >>`,
      'an LZWDecode /EarlyChange is not a number',
    ],
    [
      'a predictor feeding another filter',
      `<< /Filter [ /FlateDecode /FlateDecode ] /DecodeParms [ << /Predictor 12 >> null ] >>`,
      'a predictor feeds another filter',
    ],
    ['an inline image inside the dictionary', `<< /X BI /Filter /FlateDecode >>`, 'an object holds an inline image'],
    ['a stream inside an array', `[ << /Filter /FlateDecode >>`, 'a stream sits inside another object'],
  ])('refuses %s rather than guess', async (_case, dictionary, reason) => {
    expect(await measure(fileWith(dictionary))).toEqual({ outcome: 'unmeasurable', reason });
  });

  it('refuses an encrypted file, whose streams only pdf.js can decrypt', async () => {
    const trailer = bytesOf('%PDF-1.7\n1 0 obj\n<< >>\nendobj\ntrailer\n<< /Root 1 0 R /Encrypt 9 0 R >>\n');
    expect(await measure(trailer)).toEqual({ outcome: 'unmeasurable', reason: 'the PDF is encrypted' });
    const xrefStream = fileWith(`<< /Type /XRef /Encrypt 9 0 R /Filter /FlateDecode >>`);
    expect(await measure(xrefStream)).toEqual({ outcome: 'unmeasurable', reason: 'the PDF is encrypted' });
  });

  it('refuses object syntax built to be read again from every "obj" (2 MB of unclosed strings)', async () => {
    const result = await measure(bytesOf('%PDF-1.7\n', '1 0 obj << /A ('.repeat(150_000)));
    expect(result).toEqual({ outcome: 'unmeasurable', reason: 'its object syntax takes too long to read' });
  });

  it('measures a PDF as pdf-lib writes it, object streams included', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let page = 0; page < 3; page += 1) pdf.addPage().drawText(`Page ${page + 1}`, { x: 50, y: 700, font });
    const result = await measure(await pdf.save({ useObjectStreams: true }));
    expect(result.outcome).toBe('within');
    expect(result.outcome === 'within' && result.bytes).toBeGreaterThan(0);
  });
});
