import { toSingleLine, type DraftDocument, type DraftSection } from './assemble.js';

/*
 * A reading-oriented Markdown flattener, not a CommonMark renderer: it keeps every word a reader
 * would search for (headings, prose, code) and drops the syntax around them.
 */

// A Map, not an object literal: the first line of a file is looked up here, and "toString" must not find a prototype method.
const FRONT_MATTER_CLOSERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['---', ['---', '...']],
  ['+++', ['+++']],
]);
const FRONT_MATTER_TITLE = /^title\s*[:=]\s*(.*?)\s*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const TABLE_DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:[ \t]*\S+.*$/;
const BLOCKQUOTE_MARKERS = /^ {0,3}(?:>[ \t]?)+/;
const BULLET_MARKER = /^([ \t]*)[*+-][ \t]+/;

// Noncharacters (never valid in interchanged text) mark protected spans while inline syntax is stripped.
const STASH_OPEN = '\uFDD0';
const STASH_CLOSE = '\uFDD1';
const STASH_MARKERS = /[\uFDD0\uFDD1]/g;
const STASHED = /\uFDD0(\d+)\uFDD1/g;

const CODE_SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const BACKSLASH_ESCAPE = /\\([!-/:-@[-`{-~])/g;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
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
const STRONG = /(?<![\p{L}\p{N}_])__(?=\S)((?:[^_]|_(?!_))+?)(?<=\S)__(?![\p{L}\p{N}_])|\*\*(?=\S)((?:[^*]|\*(?!\*))+?)(?<=\S)\*\*/gu;
const STRIKETHROUGH = /~~(?=\S)((?:[^~]|~(?!~))+?)(?<=\S)~~/g;
// Underscore emphasis never applies inside a word, so snake_case identifiers are left alone.
const EMPHASIS = /(?<![\p{L}\p{N}_])_(?=\S)([^_]+?)(?<=\S)_(?![\p{L}\p{N}_])|\*(?=\S)([^*]+?)(?<=\S)\*/gu;
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos|nbsp));/g;
const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

const decodeEntity = (match: string, decimal?: string, hex?: string, name?: string): string => {
  if (name !== undefined) return NAMED_ENTITIES[name] ?? match;
  const codePoint = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? '', 16);
  const isScalarValue = codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
  return isScalarValue ? String.fromCodePoint(codePoint) : match;
};

const splitTableRow = (row: string): string[] =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());

/** Strips inline syntax from one line of prose, leaving code spans and escaped characters literal. */
const renderInline = (line: string): string => {
  const stash: string[] = [];
  const protect = (literal: string): string => `${STASH_OPEN}${stash.push(literal) - 1}${STASH_CLOSE}`;
  let text = line
    .replace(CODE_SPAN, (_match, _ticks: string, code: string) => protect(/^ .*[^ ].* $/.test(code) ? code.slice(1, -1) : code))
    .replace(BACKSLASH_ESCAPE, (_match, character: string) => protect(character))
    .replace(HTML_COMMENT, '');
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

/** Removes leading front matter; returns the remaining lines and the `title` it declared, if any. */
const takeFrontMatter = (lines: readonly string[]): { body: readonly string[]; title: string | null } => {
  const closers = FRONT_MATTER_CLOSERS.get(lines[0]?.trimEnd() ?? '');
  if (closers === undefined) return { body: lines, title: null };
  const close = lines.findIndex((line, index) => index > 0 && closers.includes(line.trimEnd()));
  if (close === -1) return { body: lines, title: null };
  let title: string | null = null;
  for (const line of lines.slice(1, close)) {
    const value = FRONT_MATTER_TITLE.exec(line)?.[1];
    if (value !== undefined && title === null) title = value.replace(/^(["'])(.*)\1$/, '$2');
  }
  return { body: lines.slice(close + 1), title: title === '' ? null : title };
};

export const extractMarkdown = (source: string): DraftDocument => {
  const { body: lines, title: frontMatterTitle } = takeFrontMatter(source.replace(STASH_MARKERS, '').split(/\r\n?|\n/));
  const sections: DraftSection[] = [];
  let current: { heading: string | null; lines: string[] } = { heading: null, lines: [] };
  let firstH1: string | null = null;
  let fence: { marker: string; length: number } | null = null;
  let inComment = false;
  let previousBlank = true;

  const startSection = (level: number, rawHeading: string): void => {
    const heading = toSingleLine(renderInline(rawHeading));
    if (level === 1 && firstH1 === null && heading !== '') firstH1 = heading;
    // An empty heading ("#") marks no topic, so its section continues the previous one.
    if (heading === '') return;
    sections.push({ heading: current.heading, page: null, body: current.lines.join('\n') });
    current = { heading, lines: [heading] };
  };

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (fence !== null) {
      const closing = FENCE_OPEN.exec(line)?.[1];
      if (closing !== undefined && closing[0] === fence.marker && closing.length >= fence.length && line.trim() === closing) {
        fence = null;
        current.lines.push('');
      } else {
        // Code is kept verbatim: in technical documents it is often exactly what a reader searches for.
        current.lines.push(line);
      }
      continue;
    }
    if (inComment) {
      const end = line.indexOf('-->');
      if (end === -1) continue;
      inComment = false;
      current.lines.push(renderInline(line.slice(end + 3)));
      continue;
    }
    const opening = FENCE_OPEN.exec(line)?.[1];
    if (opening !== undefined && !(opening[0] === '`' && line.slice(line.indexOf(opening) + opening.length).includes('`'))) {
      fence = { marker: opening[0] ?? '`', length: opening.length };
      current.lines.push('');
      previousBlank = true;
      continue;
    }
    const atx = ATX_HEADING.exec(line);
    if (atx !== null) {
      startSection(atx[1]?.length ?? 1, atx[2] ?? '');
      previousBlank = true;
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(lines[index + 1] ?? '');
    const plainLine = line.trim() !== '' && !BULLET_MARKER.test(line) && !BLOCKQUOTE_MARKERS.test(line) && !THEMATIC_BREAK.test(line);
    // Only a one-line paragraph is taken as a setext heading; a longer one keeps its lines as prose.
    if (underline !== null && previousBlank && plainLine) {
      startSection(underline[1]?.startsWith('=') === true ? 1 : 2, line);
      index += 1;
      previousBlank = true;
      continue;
    }
    if (THEMATIC_BREAK.test(line) || SETEXT_UNDERLINE.test(line)) {
      current.lines.push('');
      previousBlank = true;
      continue;
    }
    // Dropped without a trace, so a table's header row and body rows stay one paragraph.
    if ((line.includes('|') && TABLE_DELIMITER_ROW.test(line)) || LINK_DEFINITION.test(line)) continue;
    const commentStart = line.lastIndexOf('<!--');
    if (commentStart !== -1 && !line.includes('-->', commentStart)) {
      inComment = true;
      current.lines.push(renderInline(line.slice(0, commentStart)));
      continue;
    }
    const prose = line.replace(BLOCKQUOTE_MARKERS, '').replace(BULLET_MARKER, '$1- ');
    current.lines.push(renderInline(prose));
    previousBlank = prose.trim() === '';
  }
  sections.push({ heading: current.heading, page: null, body: current.lines.join('\n') });
  return { title: frontMatterTitle ?? firstH1, sections };
};
