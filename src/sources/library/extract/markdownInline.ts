/*
 * Inline Markdown flattened to readable text, in time linear in the line. Every construct that a
 * backtracking regex would rescan (code spans, comments) is found by a single forward scan; the
 * regexes left are ones whose failed attempts stop at the next opener of their own kind.
 */

// Noncharacters (never valid in interchanged text) mark protected spans while inline syntax is stripped.
const STASH_OPEN = '\uFDD0';
const STASH_CLOSE = '\uFDD1';
export const STASH_MARKERS = /[\uFDD0\uFDD1]/g;
const STASHED = /\uFDD0(\d+)\uFDD1/g;

const BACKSLASH_ESCAPE = /\\([!-/:-@[-`{-~])/g;
// Balanced parentheses one level deep, so wiki-style URLs such as /Foo_(bar) stay inside the link.
const LINK_TARGET = String.raw`\((?:[^()]|\([^()]*\))*\)`;
// Labels and emphasis bodies may not contain their own opening syntax, so a failed match stops at
// the next opener: without that, a long line of unmatched "[" or "**" takes quadratic time.
const IMAGE = new RegExp(String.raw`!\[([^[\]]*)\]${LINK_TARGET}`, 'g');
const INLINE_LINK = new RegExp(String.raw`\[([^[\]]*)\]${LINK_TARGET}`, 'g');
const REFERENCE_LINK = /\[([^[\]]+)\]\[[^[\]]*\]/g;
const AUTOLINK = /<((?:https?|ftp|mailto):[^<>\s]+|[^<>\s@]+@[^<>\s@]+)>/g;
// Only known tag names, so prose like `List<String>` outside code survives.
const HTML_TAG =
  /<\/?(?:a|abbr|b|br|center|code|del|details|div|em|figcaption|figure|font|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|picture|pre|s|small|source|span|strike|strong|sub|summary|sup|table|tbody|td|th|thead|tr|u|ul|video)\b[^<>]*>/gi;
const STRONG =
  /(?<![\p{L}\p{N}_])__(?=\S)((?:[^_]|_(?!_))+?)(?<=\S)__(?![\p{L}\p{N}_])|\*\*(?=\S)((?:[^*]|\*(?!\*))+?)(?<=\S)\*\*/gu;
const STRIKETHROUGH = /~~(?=\S)((?:[^~]|~(?!~))+?)(?<=\S)~~/g;
// Underscore emphasis never applies inside a word, so snake_case identifiers are left alone.
const EMPHASIS = /(?<![\p{L}\p{N}_])_(?=\S)([^_]+?)(?<=\S)_(?![\p{L}\p{N}_])|\*(?=\S)([^*]+?)(?<=\S)\*/gu;
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos|nbsp));/g;
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

const decodeEntity = (match: string, decimal?: string, hex?: string, name?: string): string => {
  if (name !== undefined) return NAMED_ENTITIES[name] ?? match;
  const codePoint = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? '', 16);
  const isScalarValue = codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
  return isScalarValue ? String.fromCodePoint(codePoint) : match;
};

interface BacktickRun {
  readonly start: number;
  readonly length: number;
}

const backtickRuns = (line: string): BacktickRun[] => {
  const runs: BacktickRun[] = [];
  for (let index = 0; index < line.length; ) {
    if (line[index] !== '`') {
      index += 1;
      continue;
    }
    const start = index;
    while (line[index] === '`') index += 1;
    runs.push({ start, length: index - start });
  }
  return runs;
};

export interface CodeSpan {
  /** Where the opening backticks start; backticks of the same run before it stay literal. */
  readonly start: number;
  /** Just past the closing backticks. */
  readonly end: number;
  /** The text between the backticks, untouched. */
  readonly code: string;
}

/**
 * Code spans, left to right. The opener is the longest tail of a backtick run that some later run
 * of exactly its length closes; the first such run closes it. Looking runs up by length, with a
 * cursor per length that only moves forward, makes this linear where the equivalent regex,
 * /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, rescans the rest of the line from every unmatched backtick.
 */
export const findCodeSpans = (line: string): CodeSpan[] => {
  const runs = backtickRuns(line);
  const runsByLength = new Map<number, { readonly indexes: number[]; next: number }>();
  runs.forEach((run, index) => {
    const entry = runsByLength.get(run.length);
    if (entry === undefined) runsByLength.set(run.length, { indexes: [index], next: 0 });
    else entry.indexes.push(index);
  });
  // Callers ask with a growing `after`, so each cursor passes each run at most once.
  const nextRunOfLength = (length: number, after: number): number | undefined => {
    const entry = runsByLength.get(length);
    if (entry === undefined) return undefined;
    while (entry.next < entry.indexes.length && (entry.indexes[entry.next] ?? 0) <= after) entry.next += 1;
    return entry.indexes[entry.next];
  };

  const spans: CodeSpan[] = [];
  for (let index = 0; index < runs.length; index += 1) {
    const opener = runs[index];
    if (opener === undefined) break;
    for (let length = opener.length; length >= 1; length -= 1) {
      const closerIndex = nextRunOfLength(length, index);
      if (closerIndex === undefined) continue;
      const closer = runs[closerIndex];
      if (closer === undefined) continue;
      const contentStart = opener.start + opener.length;
      spans.push({
        start: contentStart - length,
        end: closer.start + closer.length,
        code: line.slice(contentStart, closer.start),
      });
      index = closerIndex;
      break;
    }
  }
  return spans;
};

/** Removes `<!-- … -->` comments. A comment with no `-->` after it means no later one closes either. */
export const stripInlineComments = (text: string): string => {
  let out = '';
  let cursor = 0;
  for (;;) {
    const open = text.indexOf('<!--', cursor);
    const close = open === -1 ? -1 : text.indexOf('-->', open + 4);
    if (close === -1) return out + text.slice(cursor);
    out += text.slice(cursor, open);
    cursor = close + 3;
  }
};

/** CommonMark: one space is dropped from each side of code that has both, unless it is all spaces. */
const codeText = (code: string): string =>
  code.length >= 2 && code.startsWith(' ') && code.endsWith(' ') && /[^ ]/.test(code) ? code.slice(1, -1) : code;

const splitTableRow = (row: string): string[] =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());

/** Strips inline syntax from one line of prose, leaving code spans and escaped characters literal. */
export const renderInline = (line: string): string => {
  const stash: string[] = [];
  const protect = (literal: string): string => `${STASH_OPEN}${stash.push(literal) - 1}${STASH_CLOSE}`;
  let text = '';
  let cursor = 0;
  for (const span of findCodeSpans(line)) {
    text += line.slice(cursor, span.start) + protect(codeText(span.code));
    cursor = span.end;
  }
  text = stripInlineComments(
    (text + line.slice(cursor)).replace(BACKSLASH_ESCAPE, (_match, character: string) => protect(character)),
  );
  if (text.trimStart().startsWith('|')) text = splitTableRow(text).join(' | ');
  text = text
    .replace(IMAGE, '$1')
    .replace(INLINE_LINK, '$1')
    .replace(REFERENCE_LINK, '$1')
    .replace(AUTOLINK, '$1')
    .replace(HTML_TAG, '')
    .replace(STRONG, (_match, underscored?: string, starred?: string) => underscored ?? starred ?? '')
    .replace(STRIKETHROUGH, '$1')
    .replace(EMPHASIS, (_match, underscored?: string, starred?: string) => underscored ?? starred ?? '')
    .replace(ENTITY, decodeEntity);
  return text.replace(STASHED, (_match, index: string) => stash[Number(index)] ?? '');
};
