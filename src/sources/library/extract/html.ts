import { convert, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';
import { toSingleLine, type DraftDocument, type DraftSection } from './assemble.js';

// Noncharacters (never valid in interchanged text) bracket each heading in the converted text,
// so section boundaries survive html-to-text's layout without a second HTML parse.
const HEADING_OPEN = '\uFDD0';
const HEADING_CLOSE = '\uFDD1';
const MARKERS = /[\uFDD0\uFDD1]/g;
const MARKED_HEADING = /\uFDD0([1-6])([^\uFDD1]*)\uFDD1/g;
const HEADING_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;
const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;

const markHeading: FormatCallback = (element, walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addLiteral(`${HEADING_OPEN}${String(element.name).slice(1)}`);
  walk(element.children, builder);
  builder.addLiteral(HEADING_CLOSE);
  builder.closeBlock({ trailingLineBreaks: 2 });
};

const OPTIONS: HtmlToTextOptions = {
  // Wrapping would insert line breaks that are not in the document.
  wordwrap: false,
  formatters: { markHeading },
  selectors: [
    // Navigation, scripts and images carry no searchable prose of the page itself.
    ...['img', 'script', 'style', 'nav', 'noscript', 'template', 'svg'].map((selector) => ({ selector, format: 'skip' })),
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ...HEADING_TAGS.map((selector) => ({ selector, format: 'markHeading' })),
  ],
};

const textOf = (fragment: string): string => toSingleLine(convert(fragment, { wordwrap: false }));

/** `<title>` is looked for before `<body>` only: inline SVGs in the body have `<title>` elements of their own. */
const documentTitle = (source: string): string | null => {
  const head = source.split(/<body\b/i)[0] ?? '';
  const inner = TITLE.exec(head)?.[1];
  const title = inner === undefined ? '' : textOf(inner);
  return title === '' ? null : title;
};

export const extractHtml = (source: string): DraftDocument => {
  const text = convert(source.replace(MARKERS, ''), OPTIONS);
  const sections: DraftSection[] = [];
  let current: { heading: string | null; body: string } = { heading: null, body: '' };
  let cursor = 0;
  let firstH1: string | null = null;
  for (const match of text.matchAll(MARKED_HEADING)) {
    current.body += text.slice(cursor, match.index);
    cursor = match.index + match[0].length;
    // Markers of a heading nested in another heading are dropped, keeping its words.
    const heading = toSingleLine((match[2] ?? '').replace(MARKERS, ''));
    if (match[1] === '1' && firstH1 === null && heading !== '') firstH1 = heading;
    // An empty heading marks no topic, so its section continues the previous one.
    if (heading === '') continue;
    sections.push({ heading: current.heading, page: null, body: current.body.replace(MARKERS, '') });
    // The heading stays in the text as its own line, as a reader sees it.
    current = { heading, body: heading };
  }
  current.body += text.slice(cursor);
  sections.push({ heading: current.heading, page: null, body: current.body.replace(MARKERS, '') });
  return { title: documentTitle(source) ?? firstH1, sections };
};
