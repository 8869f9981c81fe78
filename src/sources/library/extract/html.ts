import { Parser } from 'htmlparser2';
import { HEADING_PATH_SEPARATOR } from '../../../domain/headingPath.js';
import { toSingleLine, type DraftDocument, type DraftSection } from './assemble.js';
import { MAX_HTML_DEPTH, markedText, plainText, TERM_LEVEL_BASE } from './htmlConvert.js';
import { STRAY_LIST_MARKER } from './htmlList.js';
import { refreshTarget, stubTarget } from './htmlRedirect.js';
import { ExtractionError, SkippedDocumentError } from './types.js';

export { MAX_HTML_DEPTH } from './htmlConvert.js';

class TooDeep extends Error {}

/**
 * Reads the page with the parser html-to-text builds its tree with, stopping at the first element
 * nested past the limit, before that parser's cost can grow with the depth. Implied and void
 * closes arrive as close events, so the count is the tree's real depth. The same pass finds where
 * a `<meta http-equiv="refresh">` redirects to, if anywhere (htmlRedirect.ts).
 */
const scanPage = (fileName: string, source: string): { redirect: string | null } => {
  let depth = 0;
  let redirect: string | null = null;
  const parser = new Parser({
    onopentag: (name, attributes) => {
      depth += 1;
      if (depth > MAX_HTML_DEPTH) throw new TooDeep();
      if (name === 'meta') redirect ??= refreshTarget(attributes);
    },
    onclosetag: () => {
      depth -= 1;
    },
  });
  try {
    parser.end(source);
  } catch (error) {
    if (error instanceof TooDeep)
      throw new ExtractionError(fileName, `elements are nested more than ${MAX_HTML_DEPTH} deep`);
    throw error;
  }
  return { redirect };
};

const TITLE_OPEN = /<title\b/i;
const TITLE_CLOSE = /<\/title\s*>/gi;

const textOf = (fragment: string): string => toSingleLine(plainText(fragment));

/**
 * `<title>` is looked for before `<body>` only: inline SVGs in the body have `<title>` elements of
 * their own. Only the first opener counts: if it is never closed, no later one is either, so this
 * never rescans the head from each `<title` the way /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i does.
 */
export const documentTitle = (source: string): string | null => {
  const bodyAt = source.search(/<body\b/i);
  const head = bodyAt === -1 ? source : source.slice(0, bodyAt);
  const opener = TITLE_OPEN.exec(head);
  const contentStart = opener === null ? -1 : head.indexOf('>', opener.index) + 1;
  if (contentStart <= 0) return null;
  TITLE_CLOSE.lastIndex = contentStart;
  const closer = TITLE_CLOSE.exec(head);
  if (closer === null) return null;
  const title = textOf(head.slice(contentStart, closer.index));
  return title === '' ? null : title;
};

/** The headings above the current text, outermost first, each with its level. */
type HeadingPath = { readonly level: number; readonly text: string }[];

/**
 * A section's heading is its path, `Outer › Inner › term`, so a passage names the setting or
 * option it describes and where it sits. A first h1 that repeats the page title is left out.
 */
const pathHeading = (path: HeadingPath, title: string | null): string | null => {
  const shown = path.filter((entry, index) => !(index === 0 && entry.level === 1 && entry.text === title));
  return shown.length === 0 ? null : shown.map((entry) => entry.text).join(HEADING_PATH_SEPARATOR);
};

export const extractHtml = (fileName: string, source: string): DraftDocument => {
  const { redirect } = scanPage(fileName, source);
  const { text, markers } = markedText(source);
  const withoutMarkers = (fragment: string): string => fragment.replace(markers.all, '').replace(STRAY_LIST_MARKER, '');
  const stub = stubTarget(redirect, toSingleLine(withoutMarkers(text)));
  if (stub !== null) throw new SkippedDocumentError(fileName, `a redirect stub to ${stub}`);
  const declaredTitle = documentTitle(source);
  const sections: DraftSection[] = [];
  const path: HeadingPath = [];
  let firstH1: string | null = null;
  let current = { heading: null as string | null, body: '' };
  const startSection = (body: string): void => {
    sections.push({ heading: current.heading, page: null, body: withoutMarkers(current.body) });
    current = { heading: pathHeading(path, declaredTitle ?? firstH1), body };
  };
  const boundary = new RegExp(`${markers.open}([1-9])|${markers.listEnd}([1-3])`, 'g');
  let cursor = 0;
  for (let found = boundary.exec(text); found !== null; found = boundary.exec(text)) {
    current.body += text.slice(cursor, found.index);
    cursor = found.index + found[0].length;
    if (found[2] !== undefined) {
      // The list ends: its terms stop being the heading of what follows.
      const depth = Number(found[2]);
      const before = path.length;
      while ((path.at(-1)?.level ?? 0) > TERM_LEVEL_BASE + depth - 1) path.pop();
      if (path.length !== before) startSection('');
      continue;
    }
    // Every heading is closed, so a missing close cannot happen; stopping keeps this total anyway.
    const close = text.indexOf(markers.close, cursor);
    if (close === -1) break;
    const level = Number(found[1]);
    // Markers of a heading nested in another heading are dropped, keeping its words.
    const heading = toSingleLine(withoutMarkers(text.slice(cursor, close)));
    cursor = close + markers.close.length;
    boundary.lastIndex = cursor;
    if (level === 1 && firstH1 === null && heading !== '') firstH1 = heading;
    // An empty heading marks no topic, so its section continues the previous one.
    if (heading === '') continue;
    // Terms listed together name one entry (`-q`, `--quiet`; a setting and its per-name form).
    const top = path.at(-1);
    if (level > TERM_LEVEL_BASE && top?.level === level && current.body.trim() === top.text) {
      path[path.length - 1] = { level, text: `${top.text}, ${heading}` };
      current = { heading: pathHeading(path, declaredTitle ?? firstH1), body: `${top.text}, ${heading}` };
      continue;
    }
    while ((path.at(-1)?.level ?? 0) >= level) path.pop();
    path.push({ level, text: heading });
    // The heading stays in the text as its own line, as a reader sees it.
    startSection(heading);
  }
  current.body += text.slice(cursor);
  sections.push({ heading: current.heading, page: null, body: withoutMarkers(current.body) });
  return { title: declaredTitle ?? firstH1, sections };
};
