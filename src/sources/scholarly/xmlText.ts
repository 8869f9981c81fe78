/*
 * Minimal XML text handling for the two XML shapes the scholarly sources serve (arXiv Atom, JATS
 * abstracts in Crossref JSON). Everything here scans forward with indexOf, never with a
 * backtracking regex over the whole body, so a hostile 2 MiB answer costs linear time.
 */

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

const codePoint = (value: number): string =>
  Number.isInteger(value) && value > 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff)
    ? String.fromCodePoint(value)
    : '\ufffd';

/**
 * Decodes the five XML entities, `&nbsp;` and numeric references. Other named entities are left
 * as written: only a DOCTYPE could define them, and expanding DOCTYPE entities is how XML bombs work.
 */
export const decodeXmlEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});/g, (match, name: string) => {
    if (name.startsWith('#x')) return codePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return codePoint(Number.parseInt(name.slice(1), 10));
    return NAMED_ENTITIES[name] ?? match;
  });

/**
 * Turns an XML fragment into one line of plain text: CDATA is kept verbatim, tags become spaces,
 * entities are decoded and whitespace is collapsed. An unterminated tag ends the text.
 */
export const xmlToPlainText = (fragment: string): string => {
  let text = '';
  let at = 0;
  while (at < fragment.length) {
    const lt = fragment.indexOf('<', at);
    if (lt < 0) {
      text += decodeXmlEntities(fragment.slice(at));
      break;
    }
    text += decodeXmlEntities(fragment.slice(at, lt));
    if (fragment.startsWith('<![CDATA[', lt)) {
      const end = fragment.indexOf(']]>', lt + 9);
      text += fragment.slice(lt + 9, end < 0 ? fragment.length : end);
      if (end < 0) break;
      at = end + 3;
      continue;
    }
    const gt = fragment.indexOf('>', lt);
    if (gt < 0) break;
    text += ' ';
    at = gt + 1;
  }
  return text.replace(/\s+/g, ' ').trim();
};

export interface XmlElement {
  /** The raw markup between the start and end tags. */
  readonly inner: string;
  /** Offset just past the end tag, to continue scanning from. */
  readonly end: number;
}

const NAME_TERMINATORS = new Set(['>', '/', ' ', '\t', '\n', '\r']);

/**
 * The first `<name …>…</name>` at or after `from`. Names are matched literally, prefix included
 * (`arxiv:doi`), which is enough for feeds that always use the same prefixes. Elements of the same
 * name must not nest; Atom entries and their fields do not.
 */
export const findElement = (xml: string, name: string, from = 0): XmlElement | undefined => {
  let at = from;
  for (;;) {
    const start = xml.indexOf(`<${name}`, at);
    if (start < 0) return undefined;
    if (!NAME_TERMINATORS.has(xml[start + name.length + 1] ?? '')) {
      at = start + 1;
      continue;
    }
    const openEnd = xml.indexOf('>', start);
    if (openEnd < 0) return undefined;
    if (xml[openEnd - 1] === '/') return { inner: '', end: openEnd + 1 };
    const close = xml.indexOf(`</${name}>`, openEnd + 1);
    if (close < 0) return undefined;
    return { inner: xml.slice(openEnd + 1, close), end: close + name.length + 3 };
  }
};
