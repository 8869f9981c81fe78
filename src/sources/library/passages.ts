import type { ExtractedDocument } from './extract/types.js';

/** A searchable unit of a document; `text` is exactly `doc.text.slice(start, end)`, so spans cite it faithfully. */
export interface Passage {
  readonly ordinal: number;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly heading: string | null;
  readonly page: number | null;
}

export interface SplitOptions {
  /** Paragraphs are packed into one passage while it stays within this many characters. */
  readonly targetChars?: number;
  /** No passage is longer than this; longer paragraphs are cut at sentences, then lines, then words, then anywhere. */
  readonly maxChars?: number;
}

export const DEFAULT_TARGET_CHARS = 700;
export const DEFAULT_MAX_CHARS = 1200;

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Finds the separators in a piece of text, as spans relative to that text, in order. */
type Separators = (text: string) => Iterable<Span>;

const matchesOf = (pattern: RegExp): Separators =>
  function* (text) {
    for (const match of text.matchAll(pattern)) yield { start: match.index, end: match.index + match[0].length };
  };

// A sentence ends after . ! ? … (and any closing quotes or brackets) that whitespace follows, and
// after a CJK full stop, which needs no space. Only the captured whitespace is the cut. A lookbehind
// would say the same, but V8 re-reads a run of closing characters from every position after it,
// which is quadratic on a long run of ")" or '"'.
const SENTENCE_END = /[.!?…]["'”’)\]]*(\s+)|[。！？](\s*)(?=\S)/gu;

/** The whitespace after each sentence, the same spans /(?<=[.!?…]["'”’)\]]*)\s+|(?<=[。！？])\s*(?=\S)/gu finds. */
export const sentenceBreaks: Separators = function* (text) {
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    yield { start: end - (match[1] ?? match[2] ?? '').length, end };
  }
};

const paragraphBreaks = matchesOf(/\n[^\S\n]*\n\s*/g);
// The blanks around a newline are trimmed from the pieces; matching them here (/\s*\n\s*/) would
// rescan a run of blanks from each of its positions.
const lineBreaks = matchesOf(/\n/g);
const wordBreaks = matchesOf(/\s+/g);
/** Finer boundaries are tried only when a piece is still over the limit at the coarser one. */
const CUT_LEVELS: readonly Separators[] = [sentenceBreaks, lineBreaks, wordBreaks];
/** A passage with no letter or digit has nothing to search for. */
const SEARCHABLE = /[\p{L}\p{N}]/u;

/** Pieces of `[start, end)` between separators, with their edge whitespace removed. */
const cutAt = (text: string, span: Span, separators: Separators): Span[] => {
  const pieces: Span[] = [];
  let cursor = span.start;
  const push = (end: number): void => {
    const piece = trimSpan(text, { start: cursor, end });
    if (piece.end > piece.start) pieces.push(piece);
  };
  for (const separator of separators(text.slice(span.start, span.end))) {
    push(span.start + separator.start);
    cursor = span.start + separator.end;
  }
  push(span.end);
  return pieces;
};

const trimSpan = (text: string, span: Span): Span => {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start] ?? '')) start += 1;
  while (end > start && /\s/.test(text[end - 1] ?? '')) end -= 1;
  return { start, end };
};

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Last resort for text with no whitespace at all; never cuts a surrogate pair in two. */
const hardCut = (text: string, span: Span, maxChars: number): Span[] => {
  const pieces: Span[] = [];
  let start = span.start;
  while (start < span.end) {
    let end = Math.min(start + maxChars, span.end);
    if (end < span.end && end - start > 1 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    pieces.push({ start, end });
    start = end;
  }
  return pieces;
};

const splitOversized = (text: string, span: Span, maxChars: number, level = 0): Span[] => {
  if (span.end - span.start <= maxChars) return [span];
  const separator = CUT_LEVELS[level];
  if (separator === undefined) return hardCut(text, span, maxChars);
  return cutAt(text, span, separator).flatMap((piece) => splitOversized(text, piece, maxChars, level + 1));
};

const resolveOptions = (options: SplitOptions): { targetChars: number; maxChars: number } => {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const targetChars = options.targetChars ?? Math.min(DEFAULT_TARGET_CHARS, maxChars);
  if (!Number.isInteger(maxChars) || maxChars < 1)
    throw new RangeError(`maxChars must be a positive integer (got ${maxChars})`);
  if (!Number.isInteger(targetChars) || targetChars < 1 || targetChars > maxChars) {
    throw new RangeError(`targetChars must be an integer from 1 to maxChars (${maxChars}) (got ${targetChars})`);
  }
  return { targetChars, maxChars };
};

/**
 * Splits each section into passages on paragraph boundaries, packing paragraphs together while a
 * passage stays within `targetChars`. A passage never spans two sections, so its heading and page
 * are those of everything in it. Passages come one at a time, so a caller that stops early (at a
 * limit) never splits the rest of the document.
 */
export function* generatePassages(
  doc: ExtractedDocument,
  options: SplitOptions = {},
): Generator<Passage, void, undefined> {
  const { targetChars, maxChars } = resolveOptions(options);
  const { text } = doc;
  let ordinal = 0;
  for (const section of doc.sections) {
    const start = Math.max(0, Math.min(section.start, text.length));
    const bounds = { start, end: Math.max(start, Math.min(section.end, text.length)) };
    const pieces = cutAt(text, bounds, paragraphBreaks).flatMap((paragraph) =>
      splitOversized(text, paragraph, maxChars),
    );
    const passageOf = (span: Span): Passage | undefined => {
      const passageText = text.slice(span.start, span.end);
      if (!SEARCHABLE.test(passageText)) return undefined;
      return { ordinal: ordinal++, text: passageText, ...span, heading: section.heading, page: section.page };
    };
    let open: Span | undefined;
    for (const [index, piece] of pieces.entries()) {
      // The section's label (a heading, a term) never stands alone: it goes with the text it names.
      const labelOnly = index === 1 && open !== undefined && isLabel(text.slice(open.start, open.end));
      const limit = labelOnly ? maxChars : targetChars;
      if (open !== undefined && piece.end - open.start <= limit) {
        open = { start: open.start, end: piece.end };
        continue;
      }
      const closed = open === undefined ? undefined : passageOf(open);
      if (closed !== undefined) yield closed;
      open = piece;
    }
    const last = open === undefined ? undefined : passageOf(open);
    if (last !== undefined) yield last;
  }
}

/** A short line with no sentence ending: a heading or a definition term, not prose. */
const isLabel = (line: string): boolean => line.length <= 120 && !line.includes('\n') && !/[.!?:;]$/.test(line);

export const splitPassages = (doc: ExtractedDocument, options: SplitOptions = {}): Passage[] => [
  ...generatePassages(doc, options),
];
