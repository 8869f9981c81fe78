/**
 * Where a list item begins in text the library stores: a bullet (`-`, `*`, `+`, `•`) or a number
 * (`1.`, `2)`) at a line start, a blank, then the item's words. HTML lists are written so
 * (sources/library/extract/htmlList.ts) and Markdown writes them so; the passage splitter keeps a
 * list's items together and the sentence splitter quotes each item apart by it.
 */
const MARKER = String.raw`[^\S\n]*(?:[-*+•]|\d{1,3}[.)])[^\S\n]+(?=\S)`;

/** The marker at the start of a line, matched with its blanks. */
export const LIST_ITEM_MARKER = new RegExp(`^${MARKER}`);

/** Each line break that an item follows (for `matchAll`). */
export const LIST_ITEM_BREAK = new RegExp(`\\n(?=${MARKER})`, 'g');

/** Every line that starts a list item (for counting items, `matchAll`). */
export const LIST_ITEM_LINE = new RegExp(`^${MARKER}`, 'gm');
