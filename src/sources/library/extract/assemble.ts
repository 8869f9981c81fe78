import { DocumentLimitError } from './limits.js';
import type { ExtractedDocument, MediaType, Section } from './types.js';

/** What a format extractor hands over: raw, un-normalized section bodies in reading order. */
export interface DraftSection {
  readonly heading: string | null;
  readonly page: number | null;
  /** Raw text of the section, including its heading line where the format shows one. */
  readonly body: string;
}

export interface DraftDocument {
  /** Null when the document names no title; the file name is used instead. */
  readonly title: string | null;
  readonly sections: readonly DraftSection[];
}

const PARAGRAPH_BREAK = '\n\n';

// C0 controls other than tab, LF, VT, FF, CR (those are whitespace and handled below), and DEL:
// they carry no text and would otherwise end up in search snippets.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000E-\u001F\u007F]/g;

/**
 * Collapses runs of spaces and tabs (and other non-newline whitespace such as NBSP) to one space,
 * drops spaces at line edges, keeps a paragraph break as exactly one blank line, and trims.
 */
export const normalizeWhitespace = (raw: string): string =>
  raw
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL_CHARACTERS, '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, PARAGRAPH_BREAK)
    .trim();

/** Collapses all whitespace, newlines included: for titles and headings, which are one line. */
export const toSingleLine = (raw: string): string => normalizeWhitespace(raw).replace(/\s+/g, ' ');

const fileNameTitle = (fileName: string): string => {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return stem === '' ? fileName : stem;
};

/**
 * Normalizes every section body and joins them with a blank line, computing the section ranges on
 * the final text so they can never drift from it. Sections without text are dropped, except PDF
 * pages: a blank page keeps an empty range so page numbers stay addressable. Stops at the first
 * section that takes the text past `maxChars`.
 */
export const assembleDocument = (
  fileName: string,
  mediaType: MediaType,
  draft: DraftDocument,
  maxChars: number,
): ExtractedDocument => {
  let text = '';
  const kept: { heading: string | null; page: number | null; contentStart: number }[] = [];
  const awaitingStart: { contentStart: number }[] = [];
  for (const section of draft.sections) {
    const body = normalizeWhitespace(section.body);
    if (body === '' && section.page === null) continue;
    const heading = section.heading === null ? null : toSingleLine(section.heading) || null;
    const entry = { heading, page: section.page, contentStart: -1 };
    kept.push(entry);
    // An empty page begins where the next text begins, so it never claims a separator.
    awaitingStart.push(entry);
    if (body === '') continue;
    if (text !== '') text += PARAGRAPH_BREAK;
    for (const waiting of awaitingStart) waiting.contentStart = text.length;
    awaitingStart.length = 0;
    text += body;
    if (text.length > maxChars) throw new DocumentLimitError(fileName, 'textChars', maxChars, text.length);
  }
  for (const waiting of awaitingStart) waiting.contentStart = text.length;

  // The first section starts at 0 and each ends where the next begins, so the ranges partition the text.
  const sections: Section[] = kept.map((section, index) => ({
    heading: section.heading,
    page: section.page,
    start: index === 0 ? 0 : section.contentStart,
    end: kept[index + 1]?.contentStart ?? text.length,
  }));
  const title = draft.title === null ? '' : toSingleLine(draft.title);
  return { title: title === '' ? fileNameTitle(fileName) : title, mediaType, text, sections };
};
