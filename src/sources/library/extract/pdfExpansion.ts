import { decodeFilter, MEASURED_FILTERS, type MeasuredFilter } from './pdfDecoders.js';
import {
  endOfKeyword,
  PdfDict,
  PdfName,
  PdfRef,
  readObject,
  Unmeasurable,
  type PdfValue,
  type ReadMeter,
} from './pdfSyntax.js';

/*
 * pdf.js decompresses a stream whole before it reads any of it (content streams through
 * DecompressionStream), so a 1 MB file whose streams inflate to gigabytes exhausts memory before
 * a single character of text could stop it. The streams are therefore measured first: every
 * stream object in the file is decoded, counted and dropped, stopping as soon as the total passes
 * the budget. The measurement errs on the side of counting too much: it scans every `obj` keyword
 * (not only those the cross-reference table names), decodes from the start of the data to
 * wherever the compressed data itself ends (not to a /Length that might lie), and refuses what it
 * cannot follow rather than guessing.
 */

export type Expansion =
  | { readonly outcome: 'within'; readonly bytes: number }
  | { readonly outcome: 'exceeded'; readonly reached: number }
  | { readonly outcome: 'unmeasurable'; readonly reason: string };

/** pdf.js's names for each filter, abbreviations included (Parser.makeFilter). */
const FILTER_NAMES: ReadonlyMap<string, MeasuredFilter | 'image'> = new Map([
  ...MEASURED_FILTERS.map((filter) => [filter, filter] as const),
  ['Fl', 'FlateDecode'],
  ['LZW', 'LZWDecode'],
  ['RL', 'RunLengthDecode'],
  ['A85', 'ASCII85Decode'],
  ['AHx', 'ASCIIHexDecode'],
  // Image codecs: text extraction never decodes an image, and the chain stops there.
  ...['DCTDecode', 'DCT', 'JPXDecode', 'JPX', 'JBIG2Decode', 'CCITTFaxDecode', 'CCF'].map(
    (name) => [name, 'image'] as const,
  ),
]);

interface Stage {
  readonly filter: MeasuredFilter;
  readonly earlyChange: number;
  /** Bytes pdf.js's predictor allocates per row, whatever the data: (Columns × Colors × BPC + 7) >> 3. */
  readonly predictorRow: number;
}

const direct = (value: PdfValue | undefined, what: string): PdfValue | undefined => {
  if (value instanceof PdfRef) throw new Unmeasurable(`a stream's ${what} is an indirect reference`);
  return value;
};

const numberIn = (params: PdfDict, ...keys: string[]): number | undefined => {
  for (const key of keys) {
    const value = direct(params.entries.get(key), `/${key}`);
    if (value !== undefined) return typeof value === 'number' ? value : undefined;
  }
  return undefined;
};

const stageOf = (filter: MeasuredFilter, params: PdfValue | undefined): Stage => {
  const dict = params instanceof PdfDict ? params : undefined;
  if (dict === undefined || (filter !== 'FlateDecode' && filter !== 'LZWDecode'))
    return { filter, earlyChange: 1, predictorRow: 0 };
  const predictor = numberIn(dict, 'Predictor') || 1;
  const usesPredictor = predictor === 2 || (predictor >= 10 && predictor <= 15);
  // The same int32 arithmetic pdf.js does, so a huge /Columns wraps here exactly as it does there.
  const row =
    ((numberIn(dict, 'Columns') || 1) *
      (numberIn(dict, 'Colors') || 1) *
      (numberIn(dict, 'BPC', 'BitsPerComponent') || 8) +
      7) >>
    3;
  // pdf.js does arithmetic on /EarlyChange as given; anything but a number can make its LZW decoder
  // read zero-bit codes forever, which no measurement can mirror.
  const earlyChange = dict.entries.has('EarlyChange') ? numberIn(dict, 'EarlyChange') : 1;
  if (filter === 'LZWDecode' && earlyChange === undefined)
    throw new Unmeasurable('an LZWDecode /EarlyChange is not a number');
  return { filter, earlyChange: earlyChange ?? 1, predictorRow: usesPredictor ? Math.max(0, row) : 0 };
};

/** The filters pdf.js applies to a stream, in order (Parser.filter); image codecs end the list. */
const stagesOf = (dict: PdfDict): Stage[] => {
  // pdf.js reads /F before /Filter and /DP before /DecodeParms.
  const filter = direct(dict.entries.get('F') ?? dict.entries.get('Filter'), '/Filter');
  const params = direct(dict.entries.get('DP') ?? dict.entries.get('DecodeParms'), '/DecodeParms');
  const names = filter instanceof PdfName ? [filter] : Array.isArray(filter) ? filter : [];
  // A chain with any entry that is not a name makes pdf.js refuse the whole stream.
  if (names.some((name) => !(name instanceof PdfName) && !(name instanceof PdfRef))) return [];
  const stages: Stage[] = [];
  for (const [index, name] of names.entries()) {
    const known = FILTER_NAMES.get((direct(name, 'filter name') as PdfName).name);
    if (known === 'image') break;
    // An unknown filter passes its data through unchanged, as pdf.js does.
    if (known === undefined) continue;
    const stageParams =
      filter instanceof PdfName
        ? params
        : Array.isArray(params)
          ? direct(params[index], '/DecodeParms entry')
          : undefined;
    stages.push(stageOf(known, stageParams));
  }
  if (stages.slice(0, -1).some((stage) => stage.predictorRow > 0))
    throw new Unmeasurable('a predictor feeds another filter');
  return stages;
};

/** Offsets just past every keyword that could begin what follows it (an object, a trailer). */
function* keywordEnds(bytes: Uint8Array, keyword: string): Generator<number> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = buffer.indexOf(keyword); at !== -1; at = buffer.indexOf(keyword, at + 1)) {
    const before = at === 0 ? 0x20 : (bytes[at - 1] ?? 0x20);
    // After a letter the keyword is part of a longer one ("endobj", "Xobj"), which pdf.js never splits.
    const afterLetter = (before >= 0x41 && before <= 0x5a) || (before >= 0x61 && before <= 0x7a);
    if (!afterLetter) yield endOfKeyword(bytes, at);
  }
}

const isEncryptionDictionary = (dict: PdfDict): boolean => dict.entries.has('Encrypt');

/** Decodes one stream's filters in turn, counting every decoded byte; stops at the budget. */
const measureStream = async (
  bytes: Uint8Array,
  dataStart: number,
  stages: readonly Stage[],
  remaining: number,
): Promise<{ size: number; exceeded: boolean }> => {
  let input = bytes.subarray(dataStart);
  let size = 0;
  for (const [index, stage] of stages.entries()) {
    const decoded = await decodeFilter(stage.filter, input, {
      limit: remaining - size,
      keep: index < stages.length - 1,
      earlyChange: stage.earlyChange,
    });
    size += decoded.size + stage.predictorRow;
    if (decoded.exceeded || size > remaining) return { size, exceeded: true };
    input = decoded.bytes;
  }
  return { size, exceeded: false };
};

/** How many bytes this PDF's streams decode to, measured up to `budget` and no further. */
export const measurePdfExpansion = async (bytes: Uint8Array, budget: number): Promise<Expansion> => {
  // Reading object syntax may look at each byte a few times over, never more: a file built to
  // make the object readers overlap (every "obj" opening a dictionary that runs to the end) stops here.
  const meter: ReadMeter = { remaining: 4 * bytes.length + 1_000_000 };
  try {
    for (const start of keywordEnds(bytes, 'trailer')) {
      const trailer = readObject(bytes, start, meter);
      if (trailer !== null && isEncryptionDictionary(trailer.dict)) return encrypted();
    }
    let total = 0;
    for (const start of keywordEnds(bytes, 'obj')) {
      const object = readObject(bytes, start, meter);
      if (object === null || object.dataStart === null) continue;
      if (isEncryptionDictionary(object.dict)) return encrypted();
      const stages = stagesOf(object.dict);
      if (stages.length === 0) continue;
      const stream = await measureStream(bytes, object.dataStart, stages, budget - total);
      total += stream.size;
      if (stream.exceeded) return { outcome: 'exceeded', reached: total };
    }
    return { outcome: 'within', bytes: total };
  } catch (error) {
    if (error instanceof Unmeasurable) return { outcome: 'unmeasurable', reason: error.message };
    throw error;
  }
};

// pdf.js decrypts encrypted streams before it inflates them; without the key they cannot be measured.
const encrypted = (): Expansion => ({ outcome: 'unmeasurable', reason: 'the PDF is encrypted' });
