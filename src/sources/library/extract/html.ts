import { randomBytes } from 'node:crypto';
import { convert, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';
import { Parser } from 'htmlparser2';
import { HEADING_PATH_SEPARATOR } from '../../../domain/headingPath.js';
import { toSingleLine, type DraftDocument, type DraftSection } from './assemble.js';
import { formatTable } from './htmlTable.js';
import { layOutLists, type ListMarkers, listFormatters, listMarkers, STRAY_LIST_MARKER } from './htmlList.js';
import { refreshTarget, stubTarget } from './htmlRedirect.js';
import { ExtractionError, SkippedDocumentError } from './types.js';

/**
 * Elements nested deeper than this refuse the document; browsers' own parsers stop nesting at 512.
 * Unbounded nesting costs twice: htmlparser2 pushes each open element onto the front of an array
 * (800 KB of nested <div>s took 14 s to parse) and html-to-text walks the tree recursively, which
 * overflows the stack a few thousand levels down.
 */
export const MAX_HTML_DEPTH = 512;

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

// Noncharacters (never valid in interchanged text) plus a per-call nonce bracket each heading in
// the converted text, so section boundaries survive html-to-text's layout without a second parse.
// The nonce matters: a page can spell a noncharacter as an entity (&#xFDD0;), but not guess it.
interface Markers {
  /** Followed by the heading level: 1-6 for h1-h6, 7-9 for a definition term at list depth 1-3. */
  readonly open: string;
  readonly close: string;
  /** Followed by the depth (1-3) of the definition list that ends there. */
  readonly listEnd: string;
  /** Every open (with its level), close and list-end marker, and any stray noncharacter the page spelled as an entity. */
  readonly all: RegExp;
  /** Where bulleted and numbered lists and their items begin and end (htmlList.ts). */
  readonly lists: ListMarkers;
}

const newMarkers = (): Markers => {
  const nonce = randomBytes(8).toString('hex');
  return {
    open: `\uFDD0${nonce}`,
    close: `\uFDD1${nonce}`,
    listEnd: `\uFDD2${nonce}`,
    all: new RegExp(`\uFDD0${nonce}[1-9]|\uFDD1${nonce}|\uFDD2${nonce}[1-3]|[\uFDD0\uFDD1\uFDD2]`, 'g'),
    lists: listMarkers(nonce),
  };
};

/**
 * Navigation and the page's own banner and footer repeat on every page of a site. `<header>` and
 * `<footer>` count only as children of `<body>`: inside an `<article>` or a `<section>` they are
 * that part's own heading block or notes. DocBook marks its "Prev Up Next" bars with classes.
 */
const PAGE_CHROME = [
  'nav',
  '[role=navigation]',
  'body > header',
  'body > footer',
  '[role=banner]',
  '[role=contentinfo]',
  'div.navheader',
  'div.navfooter',
];

/**
 * Permalink anchors a generator adds to headings, definition terms and captions: Sphinx and MkDocs
 * (`a.headerlink`, "¶"), VitePress and VuePress (`a.header-anchor`, "#"), Docusaurus
 * (`a.hash-link`), rustdoc and GitHub (`a.anchor`, "§" or an icon). They are a link to the heading,
 * not its words. Matched by element and class, so a "¶" the prose itself writes stays.
 */
const PERMALINK_ANCHORS = ['a.headerlink', 'a.header-anchor', 'a.hash-link', 'a.anchor'];

const HEADING_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;
const TITLE_OPEN = /<title\b/i;
const TITLE_CLOSE = /<\/title\s*>/gi;

/** A cell's text is followed by a space, so a table row reads as one line of words. */
const tableCell: FormatCallback = (element, walk, builder) => {
  walk(element.children, builder);
  builder.addInline(' ');
};

/*
 * Quotes are plain blocks, lists are items behind their markers (htmlList.ts), tables are rows
 * (htmlTable.ts). html-to-text's own layouts cost more than the page: a data table expands
 * colspan/rowspan into a grid (forty cells with colspan="1000" took 11 s), and list and quote
 * prefixes repeat on every line at every level (115 KB of nested lists became 16 MB).
 */
const BLOCKS = ['caption', 'blockquote'];
const LISTS = ['ul', 'ol', 'menu', 'dir'];
const LINES = ['thead', 'tbody', 'tfoot', 'tr', 'dd'];
/** Definition terms deeper than this belong to the enclosing term's entry. */
const MAX_LIST_DEPTH = 3;
const TERM_LEVEL_BASE = 6;

const optionsFor = (markers: Markers): HtmlToTextOptions => {
  const markHeading: FormatCallback = (element, walk, builder) => {
    builder.openBlock({ leadingLineBreaks: 2 });
    builder.addLiteral(`${markers.open}${String(element.name).slice(1)}`);
    walk(element.children, builder);
    builder.addLiteral(markers.close);
    builder.closeBlock({ trailingLineBreaks: 2 });
  };
  // A definition term (an option, a setting, a parameter) opens an entry of its own, like a heading
  // one level below h6, so its label and its description land in the same passages. The list's end
  // closes its entries: text after the list belongs to the enclosing heading again.
  let listDepth = 0;
  const markList: FormatCallback = (element, walk, builder) => {
    listDepth += 1;
    builder.openBlock({ leadingLineBreaks: 2 });
    walk(element.children, builder);
    if (listDepth <= MAX_LIST_DEPTH) builder.addLiteral(`${markers.listEnd}${listDepth}`);
    builder.closeBlock({ trailingLineBreaks: 2 });
    listDepth -= 1;
  };
  const markTerm: FormatCallback = (element, walk, builder) => {
    builder.openBlock({ leadingLineBreaks: 2 });
    if (listDepth > MAX_LIST_DEPTH) {
      walk(element.children, builder);
    } else {
      builder.addLiteral(`${markers.open}${TERM_LEVEL_BASE + listDepth}`);
      walk(element.children, builder);
      builder.addLiteral(markers.close);
    }
    builder.closeBlock({ trailingLineBreaks: 2 });
  };
  return {
    // Wrapping would insert line breaks that are not in the document.
    wordwrap: false,
    // scanPage has already refused anything deeper; this only keeps the walk total if it had not.
    limits: { maxDepth: MAX_HTML_DEPTH },
    formatters: { markHeading, markList, markTerm, tableCell, formatTable, ...listFormatters(markers.lists) },
    selectors: [
      // Navigation, scripts, images and permalinks carry no searchable prose of the page itself; the title is read apart.
      ...['title', 'img', 'script', 'style', 'noscript', 'template', 'svg', ...PAGE_CHROME, ...PERMALINK_ANCHORS].map(
        (selector) => ({ selector, format: 'skip' }),
      ),
      { selector: 'a', options: { ignoreHref: true } },
      ...BLOCKS.map((selector) => ({ selector, format: 'block' })),
      ...LISTS.map((selector) => ({ selector, format: 'list' })),
      { selector: 'li', format: 'listItem' },
      { selector: 'table', format: 'formatTable' },
      ...LINES.map((selector) => ({
        selector,
        format: 'block',
        options: { leadingLineBreaks: 1, trailingLineBreaks: 1 },
      })),
      ...['td', 'th'].map((selector) => ({ selector, format: 'tableCell' })),
      ...HEADING_TAGS.map((selector) => ({ selector, format: 'markHeading' })),
      { selector: 'dl', format: 'markList' },
      { selector: 'dt', format: 'markTerm' },
    ],
  };
};

const textOf = (fragment: string): string => toSingleLine(convert(fragment, { wordwrap: false }));

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
  const markers = newMarkers();
  const text = layOutLists(convert(source, optionsFor(markers)), markers.lists, markers.open);
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
