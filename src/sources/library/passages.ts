import { LIST_ITEM_BREAK, LIST_ITEM_MARKER } from '../../domain/listItem.js';
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
/** The line breaks before each item of a list (a paragraph of items, each behind its marker). */
const itemBreaks = matchesOf(LIST_ITEM_BREAK);
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

/** A marker is a few characters long; looking at the start of the span is enough. */
const MARKER_WINDOW = 40;

const isListItem = (text: string, span: Span): boolean =>
  LIST_ITEM_MARKER.test(text.slice(span.start, Math.min(span.end, span.start + MARKER_WINDOW)));

/** A list too long for one passage is cut between its items first, so no item is cut while the items fit. */
const splitParagraph = (text: string, paragraph: Span, maxChars: number): Span[] =>
  paragraph.end - paragraph.start > maxChars && isListItem(text, paragraph)
    ? cutAt(text, paragraph, itemBreaks).flatMap((item) => splitOversized(text, item, maxChars))
    : splitOversized(text, paragraph, maxChars);

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

/** A short line with no sentence ending: a heading or a definition term, not prose. */
const isLabel = (line: string): boolean => line.length <= 120 && !line.includes('\n') && !/[.!?:;]$/.test(line);

/** A paragraph that ends in a colon introduces what follows it: a list, a code block, a table. */
const isLeadIn = (text: string, span: Span): boolean => text[span.end - 1] === ':';

/**
 * Packs one section's pieces into passages, in order, while a passage stays within `targetChars`.
 * Some pieces belong with what precedes them and may take a passage up to `maxChars`: the text
 * after the section's label (a heading or a term never stands alone), a list item after its
 * lead-in or the list's previous item, and whatever follows a paragraph ending in a colon. Such a
 * piece and what it belongs with form a unit; when the unit does not fit beside the passage's
 * earlier pieces, the passage ends before the unit, which opens the next one. A list longer than
 * one passage goes on in the next, its lead-in with its first part (a passage is one slice of the
 * text, so the lead-in cannot be repeated).
 */
/** A paragraph, or a part of one too long for a passage. */
interface Piece extends Span {
  /** The piece ends its paragraph (a part cut from a longer one ends it only when it is the last part). */
  readonly closesParagraph: boolean;
}

function* packPieces(text: string, pieces: readonly Piece[], targetChars: number, maxChars: number): Generator<Span> {
  let members: Piece[] = [];
  /** Where in `members` the unit the last piece belongs to begins; undefined when it belongs to none. */
  let unitFrom: number | undefined;
  const spanOf = (from: readonly Span[]): Span => ({ start: from[0]?.start ?? 0, end: from.at(-1)?.end ?? 0 });
  for (const [index, piece] of pieces.entries()) {
    const first = members[0];
    const last = members.at(-1);
    if (first === undefined || last === undefined) {
      members = [piece];
      continue;
    }
    const labelled = index === 1 && isLabel(text.slice(first.start, first.end));
    // An item belongs with the list's previous item or the paragraph before the list. Inside a
    // paragraph cut at its sentences (a PDF page) the sentence before an item is as likely the end
    // of the previous item: only a colon makes it a lead-in.
    const item = isListItem(text, piece);
    const introduced = isLeadIn(text, last) || (item && (last.closesParagraph || isListItem(text, last)));
    if (labelled) unitFrom = 0;
    else if (introduced) unitFrom ??= members.length - 1;
    else unitFrom = undefined;
    const limit = unitFrom === 0 ? maxChars : targetChars;
    const unitStart = unitFrom === undefined ? undefined : members[unitFrom];
    if (piece.end - first.start <= limit) {
      members.push(piece);
    } else if (
      unitFrom !== undefined &&
      unitFrom > 0 &&
      unitStart !== undefined &&
      piece.end - unitStart.start <= maxChars
    ) {
      yield spanOf(members.slice(0, unitFrom));
      members = [...members.slice(unitFrom), piece];
      unitFrom = 0;
    } else {
      yield spanOf(members);
      members = [piece];
      // A list cut here goes on as a unit of its own: its next items join it up to the maximum.
      unitFrom = introduced ? 0 : undefined;
    }
  }
  if (members.length > 0) yield spanOf(members);
}

/**
 * Splits each section into passages on paragraph boundaries (a list between its items), packing
 * them as packPieces says. A passage never spans two sections, so its heading and page are those
 * of everything in it. Passages come one at a time, so a caller that stops early (at a limit)
 * never splits the rest of the document.
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
    const pieces = cutAt(text, bounds, paragraphBreaks).flatMap((paragraph) => {
      const parts = splitParagraph(text, paragraph, maxChars);
      return parts.map((part, index) => ({ ...part, closesParagraph: index === parts.length - 1 }));
    });
    for (const span of packPieces(text, pieces, targetChars, maxChars)) {
      const passageText = text.slice(span.start, span.end);
      if (!SEARCHABLE.test(passageText)) continue;
      yield { ordinal: ordinal++, text: passageText, ...span, heading: section.heading, page: section.page };
    }
  }
}

export const splitPassages = (doc: ExtractedDocument, options: SplitOptions = {}): Passage[] => [
  ...generatePassages(doc, options),
];
