import { randomBytes } from 'node:crypto';
import { compile, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';
import { type ListConversion, layOutLists, type ListMarkers, listFormatters, listMarkers } from './htmlList.js';
import { formatTable } from './htmlTable.js';

/*
 * An HTML page as text, with its headings and definition terms marked so extractHtml (html.ts)
 * can cut it into sections. The converter is compiled once: html-to-text turns its selectors into
 * a decision tree on every `convert` call, which cost a third of the time of a Texinfo manual's
 * ingest. What differs from page to page (the markers, where the walk is) travels as the
 * conversion's metadata.
 */

/**
 * Elements nested deeper than this refuse the document; browsers' own parsers stop nesting at 512.
 * Unbounded nesting costs twice: htmlparser2 pushes each open element onto the front of an array
 * (800 KB of nested <div>s took 14 s to parse) and html-to-text walks the tree recursively, which
 * overflows the stack a few thousand levels down.
 */
export const MAX_HTML_DEPTH = 512;

// Noncharacters (never valid in interchanged text) plus a per-call nonce bracket each heading in
// the converted text, so section boundaries survive html-to-text's layout without a second parse.
// The nonce matters: a page can spell a noncharacter as an entity (&#xFDD0;), but not guess it.
export interface Markers {
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

/** What the formatters of one conversion share. */
interface Conversion {
  readonly markers: Markers;
  /** How many definition lists are open around the element being formatted. */
  definitionDepth: number;
  readonly lists: ListConversion;
}

type Builder = Parameters<FormatCallback>[2];

// html-to-text 10 hands the metadata a converter is called with to every formatter as
// `builder.metadata`; its type definitions (9.0) predate that.
const conversionOf = (builder: Builder): Conversion => (builder as unknown as { metadata: Conversion }).metadata;

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
/** A definition term at list depth d is marked as a heading of level TERM_LEVEL_BASE + d. */
export const TERM_LEVEL_BASE = 6;

const markHeading: FormatCallback = (element, walk, builder) => {
  const { markers } = conversionOf(builder);
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addLiteral(`${markers.open}${String(element.name).slice(1)}`);
  walk(element.children, builder);
  builder.addLiteral(markers.close);
  builder.closeBlock({ trailingLineBreaks: 2 });
};

// A definition term (an option, a setting, a parameter) opens an entry of its own, like a heading
// one level below h6, so its label and its description land in the same passages. The list's end
// closes its entries: text after the list belongs to the enclosing heading again.
const markList: FormatCallback = (element, walk, builder) => {
  const conversion = conversionOf(builder);
  conversion.definitionDepth += 1;
  builder.openBlock({ leadingLineBreaks: 2 });
  walk(element.children, builder);
  const depth = conversion.definitionDepth;
  if (depth <= MAX_LIST_DEPTH) builder.addLiteral(`${conversion.markers.listEnd}${depth}`);
  builder.closeBlock({ trailingLineBreaks: 2 });
  conversion.definitionDepth -= 1;
};

const markTerm: FormatCallback = (element, walk, builder) => {
  const { markers, definitionDepth } = conversionOf(builder);
  builder.openBlock({ leadingLineBreaks: 2 });
  if (definitionDepth > MAX_LIST_DEPTH) {
    walk(element.children, builder);
  } else {
    builder.addLiteral(`${markers.open}${TERM_LEVEL_BASE + definitionDepth}`);
    walk(element.children, builder);
    builder.addLiteral(markers.close);
  }
  builder.closeBlock({ trailingLineBreaks: 2 });
};

const OPTIONS: HtmlToTextOptions = {
  // Wrapping would insert line breaks that are not in the document.
  wordwrap: false,
  // html.ts has already refused anything deeper; this only keeps the walk total if it had not.
  limits: { maxDepth: MAX_HTML_DEPTH },
  formatters: {
    markHeading,
    markList,
    markTerm,
    tableCell,
    formatTable,
    ...listFormatters((builder) => conversionOf(builder).lists),
  },
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

const convertPage = compile(OPTIONS) as unknown as (source: string, metadata: Conversion) => string;
const convertFragment = compile({ wordwrap: false });

/** The page's text, lists laid out, headings and terms still marked with the returned markers. */
export const markedText = (source: string): { readonly text: string; readonly markers: Markers } => {
  const markers = newMarkers();
  const converted = convertPage(source, { markers, definitionDepth: 0, lists: { markers: markers.lists, counts: [] } });
  return { text: layOutLists(converted, markers.lists, markers.open), markers };
};

/** A fragment's text (a title), as html-to-text's defaults read it, without wrapping. */
export const plainText = (fragment: string): string => convertFragment(fragment);
