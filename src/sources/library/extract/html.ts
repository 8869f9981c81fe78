import { randomBytes } from 'node:crypto';
import { convert, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';
import { Parser } from 'htmlparser2';
import { toSingleLine, type DraftDocument, type DraftSection } from './assemble.js';
import { ExtractionError } from './types.js';

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
 * closes arrive as close events, so the count is the tree's real depth.
 */
const assertShallow = (fileName: string, source: string): void => {
  let depth = 0;
  const parser = new Parser({
    onopentag: () => {
      depth += 1;
      if (depth > MAX_HTML_DEPTH) throw new TooDeep();
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
};

// Noncharacters (never valid in interchanged text) plus a per-call nonce bracket each heading in
// the converted text, so section boundaries survive html-to-text's layout without a second parse.
// The nonce matters: a page can spell a noncharacter as an entity (&#xFDD0;), but not guess it.
interface Markers {
  /** Followed by the heading level, 1-6. */
  readonly open: string;
  readonly close: string;
  /** Every open (with its level) and close marker, and any stray noncharacter the page spelled as an entity. */
  readonly all: RegExp;
}

const newMarkers = (): Markers => {
  const nonce = randomBytes(8).toString('hex');
  return {
    open: `\uFDD0${nonce}`,
    close: `\uFDD1${nonce}`,
    all: new RegExp(`\uFDD0${nonce}[1-6]|\uFDD1${nonce}|[\uFDD0\uFDD1]`, 'g'),
  };
};

const HEADING_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;
const TITLE_OPEN = /<title\b/i;
const TITLE_CLOSE = /<\/title\s*>/gi;

/** A cell's text is followed by a space, so a table row reads as one line of words. */
const tableCell: FormatCallback = (element, walk, builder) => {
  walk(element.children, builder);
  builder.addInline(' ');
};

/*
 * Tables, lists and quotes are plain blocks. html-to-text's own layouts cost more than the page:
 * a data table expands colspan/rowspan into a grid (forty cells with colspan="1000" took 11 s), and
 * list and quote prefixes repeat on every line at every level (115 KB of nested lists became 16 MB).
 */
const BLOCKS = ['table', 'caption', 'ul', 'ol', 'dl', 'blockquote'];
const LINES = ['thead', 'tbody', 'tfoot', 'tr', 'li', 'dt', 'dd'];

const optionsFor = (markers: Markers): HtmlToTextOptions => {
  const markHeading: FormatCallback = (element, walk, builder) => {
    builder.openBlock({ leadingLineBreaks: 2 });
    builder.addLiteral(`${markers.open}${String(element.name).slice(1)}`);
    walk(element.children, builder);
    builder.addLiteral(markers.close);
    builder.closeBlock({ trailingLineBreaks: 2 });
  };
  return {
    // Wrapping would insert line breaks that are not in the document.
    wordwrap: false,
    // assertShallow has already refused anything deeper; this only keeps the walk total if it had not.
    limits: { maxDepth: MAX_HTML_DEPTH },
    formatters: { markHeading, tableCell },
    selectors: [
      // Navigation, scripts and images carry no searchable prose of the page itself.
      ...['img', 'script', 'style', 'nav', 'noscript', 'template', 'svg'].map((selector) => ({
        selector,
        format: 'skip',
      })),
      { selector: 'a', options: { ignoreHref: true } },
      ...BLOCKS.map((selector) => ({ selector, format: 'block' })),
      ...LINES.map((selector) => ({
        selector,
        format: 'block',
        options: { leadingLineBreaks: 1, trailingLineBreaks: 1 },
      })),
      ...['td', 'th'].map((selector) => ({ selector, format: 'tableCell' })),
      ...HEADING_TAGS.map((selector) => ({ selector, format: 'markHeading' })),
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

export const extractHtml = (fileName: string, source: string): DraftDocument => {
  assertShallow(fileName, source);
  const markers = newMarkers();
  const text = convert(source, optionsFor(markers));
  const withoutMarkers = (fragment: string): string => fragment.replace(markers.all, '');
  const sections: DraftSection[] = [];
  let current: { heading: string | null; body: string } = { heading: null, body: '' };
  let cursor = 0;
  let firstH1: string | null = null;
  for (let open = text.indexOf(markers.open); open !== -1; open = text.indexOf(markers.open, cursor)) {
    // Every heading is closed, so a missing close cannot happen; stopping keeps this total anyway.
    const close = text.indexOf(markers.close, open);
    if (close === -1) break;
    const level = text[open + markers.open.length];
    current.body += text.slice(cursor, open);
    cursor = close + markers.close.length;
    // Markers of a heading nested in another heading are dropped, keeping its words.
    const heading = toSingleLine(withoutMarkers(text.slice(open + markers.open.length + 1, close)));
    if (level === '1' && firstH1 === null && heading !== '') firstH1 = heading;
    // An empty heading marks no topic, so its section continues the previous one.
    if (heading === '') continue;
    sections.push({ heading: current.heading, page: null, body: withoutMarkers(current.body) });
    // The heading stays in the text as its own line, as a reader sees it.
    current = { heading, body: heading };
  }
  current.body += text.slice(cursor);
  sections.push({ heading: current.heading, page: null, body: withoutMarkers(current.body) });
  return { title: documentTitle(source) ?? firstH1, sections };
};
