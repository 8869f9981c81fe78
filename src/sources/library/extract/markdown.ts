import { toSingleLine, type DraftDocument, type DraftSection } from './assemble.js';
import { renderInline, STASH_MARKERS } from './markdownInline.js';
import { pipeTableAt, TABLE_DELIMITER_ROW } from './markdownTable.js';

/*
 * A reading-oriented Markdown flattener, not a CommonMark renderer: it keeps every word a reader
 * would search for (headings, prose, code) and drops the syntax around them.
 */

// A Map, not an object literal: the first line of a file is looked up here, and "toString" must not find a prototype method.
const FRONT_MATTER_CLOSERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['---', ['---', '...']],
  ['+++', ['+++']],
]);
const FRONT_MATTER_TITLE_KEY = /^title\s*[:=]/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
// The opening hashes only: the rest of an ATX heading is taken apart by `atxHeading`, because the
// one-regex form (lazy content, optional closing run, trailing blanks) rescans every blank run.
const ATX_OPENER = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:[ \t]*\S/;
const BLOCKQUOTE_MARKERS = /^ {0,3}(?:>[ \t]?)+/;
const BULLET_MARKER = /^([ \t]*)[*+-][ \t]+/;

const isBlank = (character: string | undefined): boolean => character === ' ' || character === '\t';

/**
 * An ATX heading's level and text. The text loses its edge blanks and a closing run of `#` that
 * blanks separate from it; a run of `#` alone is text ("# #" is a heading "#"), as before.
 */
export const atxHeading = (line: string): { level: number; text: string } | null => {
  const opener = ATX_OPENER.exec(line);
  if (opener === null) return null;
  const rest = line.slice(opener[0].length);
  let start = 0;
  while (isBlank(rest[start])) start += 1;
  let end = rest.length;
  while (end > start && isBlank(rest[end - 1])) end -= 1;
  let closingRun = end;
  while (closingRun > start && rest[closingRun - 1] === '#') closingRun -= 1;
  if (closingRun < end && closingRun > start && isBlank(rest[closingRun - 1])) {
    end = closingRun;
    while (end > start && isBlank(rest[end - 1])) end -= 1;
  }
  return { level: opener[1]?.length ?? 1, text: rest.slice(start, end) };
};

/** The value of a `title: …` (or `title = …`) front matter line, unquoted; null for any other line. */
export const frontMatterTitle = (line: string): string | null => {
  const key = FRONT_MATTER_TITLE_KEY.exec(line);
  if (key === null) return null;
  return line
    .slice(key[0].length)
    .trim()
    .replace(/^(["'])(.*)\1$/, '$2');
};

/** Removes leading front matter; returns the remaining lines and the `title` it declared, if any. */
const takeFrontMatter = (lines: readonly string[]): { body: readonly string[]; title: string | null } => {
  const closers = FRONT_MATTER_CLOSERS.get(lines[0]?.trimEnd() ?? '');
  if (closers === undefined) return { body: lines, title: null };
  const close = lines.findIndex((line, index) => index > 0 && closers.includes(line.trimEnd()));
  if (close === -1) return { body: lines, title: null };
  let title: string | null = null;
  for (const line of lines.slice(1, close)) {
    title ??= frontMatterTitle(line);
  }
  return { body: lines.slice(close + 1), title: title === '' ? null : title };
};

/** A fence closes on a line of nothing but a run of its own marker at least as long as its opener. */
const closesFence = (line: string, fence: { marker: string; length: number }): boolean => {
  const closing = FENCE_OPEN.exec(line)?.[1];
  return (
    closing !== undefined && closing[0] === fence.marker && closing.length >= fence.length && line.trim() === closing
  );
};

export const extractMarkdown = (source: string): DraftDocument => {
  const { body: lines, title: declaredTitle } = takeFrontMatter(source.replace(STASH_MARKERS, '').split(/\r\n?|\n/));
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
      if (closesFence(line, fence)) {
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
    if (
      opening !== undefined &&
      !(opening[0] === '`' && line.slice(line.indexOf(opening) + opening.length).includes('`'))
    ) {
      fence = { marker: opening[0] ?? '`', length: opening.length };
      current.lines.push('');
      previousBlank = true;
      continue;
    }
    const atx = atxHeading(line);
    if (atx !== null) {
      startSection(atx.level, atx.text);
      previousBlank = true;
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(lines[index + 1] ?? '');
    const plainLine =
      line.trim() !== '' && !BULLET_MARKER.test(line) && !BLOCKQUOTE_MARKERS.test(line) && !THEMATIC_BREAK.test(line);
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
    const table = pipeTableAt(lines, index);
    if (table !== null) {
      // Each row its own paragraph, so a passage never cuts one in two.
      for (const row of table.rows) current.lines.push('', row);
      current.lines.push('');
      index = table.end - 1;
      previousBlank = true;
      continue;
    }
    // Dropped without a trace, so a header-less table's rows stay one paragraph.
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
  return { title: declaredTitle ?? firstH1, sections };
};
