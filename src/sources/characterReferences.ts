/**
 * One decoder for character references in text a source extracts (Markdown inline text, XML from
 * the scholarly sources): the five XML entities, `&nbsp;` (U+00A0, as HTML defines it) and decimal
 * or hexadecimal references. A reference to no Unicode scalar value (0, a surrogate, past U+10FFFF)
 * becomes U+FFFD, as HTML and CommonMark say. Other named entities stay as written: in XML only a
 * DOCTYPE could define them, and expanding DOCTYPE entities is how XML bombs work.
 */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

const REFERENCE = /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});/g;

const scalar = (value: number): string =>
  Number.isInteger(value) && value > 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff)
    ? String.fromCodePoint(value)
    : '\ufffd';

export const decodeCharacterReferences = (text: string): string =>
  text.replace(REFERENCE, (match, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return scalar(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return scalar(Number.parseInt(name.slice(1), 10));
    return NAMED[name] ?? match;
  });
