import { escapeHtml } from './page.js';

/** The citation markers an answer puts after a quoted sentence: "[1]", "[2, 3]". */
const CITATION = /\s*\[\d+(?:\s*,\s*\d+)*\]/g;
/** Shorter fragments ("Yes.", "[1]") would light up every passage that happens to contain them. */
const MIN_QUOTE_LENGTH = 12;

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The sentences an answer or a claim quotes: split at sentence ends and lines, citation markers dropped. */
export const quotesOf = (texts: readonly string[]): string[] =>
  texts
    .flatMap((text) => text.replace(CITATION, '').split(/(?<=[.!?])\s+|\n+/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= MIN_QUOTE_LENGTH);

/** Every place a quote occurs verbatim in the passage, in order, overlapping ones merged. */
export const quotedSpans = (passage: string, quotes: readonly string[]): Span[] => {
  const found: Span[] = [];
  for (const quote of new Set(quotes)) {
    for (let at = passage.indexOf(quote); at >= 0; at = passage.indexOf(quote, at + quote.length))
      found.push({ start: at, end: at + quote.length });
  }
  found.sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of found) {
    const last = merged.at(-1);
    if (last !== undefined && span.start <= last.end)
      merged[merged.length - 1] = { ...last, end: Math.max(last.end, span.end) };
    else merged.push(span);
  }
  return merged;
};

/** The passage as HTML: every character escaped, each quoted span in a `<mark>`. */
export const highlightQuotes = (passage: string, quotes: readonly string[]): string => {
  let html = '';
  let at = 0;
  for (const span of quotedSpans(passage, quotes)) {
    html += `${escapeHtml(passage.slice(at, span.start))}<mark>${escapeHtml(passage.slice(span.start, span.end))}</mark>`;
    at = span.end;
  }
  return html + escapeHtml(passage.slice(at));
};
