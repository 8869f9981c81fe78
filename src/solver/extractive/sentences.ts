import { LIST_ITEM_MARKER } from '../../domain/listItem.js';

const MIN_SENTENCE = 12;
const MAX_SENTENCE = 400;

/** Table rows, fences and rules that carry no sentence of their own. */
const isStructural = (line: string): boolean =>
  /^\s*(\||```|---|===)/.test(line) || (line.match(/(?<=\s)\|(?=\s)/g)?.length ?? 0) >= 2;

/**
 * A field: a short label, a colon, then its value (`Default: 'session'`, `Type: str`), or a table
 * row the library wrote as `Name: port; Default: 1522`. It states something, so it is not a heading.
 */
const FIELD = /^[^:;]{1,40}[:;]\s+\S/;

/** A heading: a paragraph of one short line without sentence punctuation at its end. */
const isHeading = (lines: readonly string[]): boolean => {
  const only = lines.length === 1 ? lines[0]?.trim() : undefined;
  return only !== undefined && only.length < 80 && !/[.!?:;,)]$/.test(only) && !FIELD.test(only);
};

interface Unit {
  readonly lines: string[];
  /** An item's marker as written ("- ", "3. "), quoted with it so a reader (and the answer contract) sees the list; "" for prose. */
  readonly marker: string;
  /** A list item is quoted however short it is: "int", "main" are whole items. */
  readonly item: boolean;
}

/**
 * A paragraph's lines grouped into units: each list item (the library writes every item on a line
 * of its own behind its marker) with its continuation lines, and the text before the first item.
 */
const unitsOf = (lines: readonly string[]): Unit[] => {
  const units: Unit[] = [];
  for (const line of lines) {
    const marker = LIST_ITEM_MARKER.exec(line);
    const last = units.at(-1);
    if (marker !== null)
      units.push({ lines: [line.slice(marker[0].length)], item: true, marker: `${marker[0].trim()} ` });
    else if (last === undefined) units.push({ lines: [line], item: false, marker: '' });
    else last.lines.push(line);
  }
  // Only a paragraph with no item can be a heading: an item's words are its own, however short.
  const [only] = units;
  return units.length === 1 && only !== undefined && !only.item && isHeading(only.lines) ? [] : units;
};

const SEARCHABLE = /[\p{L}\p{N}]/u;

/**
 * Sentences of a passage for extractive answers: paragraphs first (headings and table rows are
 * not sentences), each list item apart, then terminal punctuation followed by a capital or digit.
 * Over-long fragments (a table flattened into one line) are dropped rather than quoted, and so are
 * fragments too short to say anything, except a list item.
 */
export const splitSentences = (text: string): string[] =>
  text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => unitsOf(paragraph.split('\n').filter((line) => line.trim() !== '' && !isStructural(line))))
    .flatMap((unit) => {
      const sentences = unit.lines
        .join(' ')
        .replace(/\s+/g, ' ')
        .split(/(?<=[.!?])\s+(?=[A-Z0-9"'([`*])/)
        .map((s) => s.trim());
      const [whole] = sentences;
      if (unit.item && sentences.length === 1 && whole !== undefined && whole.length <= MAX_SENTENCE)
        return SEARCHABLE.test(whole) ? [`${unit.marker}${whole}`] : [];
      return sentences
        .map((s, i) => (i === 0 ? `${unit.marker}${s}` : s))
        .filter((s) => s.length >= MIN_SENTENCE && s.length <= MAX_SENTENCE);
    });
