import type { DomNode, FormatCallback } from 'html-to-text';

/*
 * A list is read as a page shows it: each item on a line of its own behind its marker ("- " in a
 * <ul>, "3. " in an <ol>, counted from its `start`), and the whole list one paragraph, however many
 * paragraphs, code blocks or nested lists its items hold. The passage splitter then keeps the items
 * together and with the lead-in paragraph before them (passages.ts), and the sentence splitter
 * quotes each item apart (solver/extractive/sentences.ts). html-to-text's own list layout indents
 * every line at every level (115 KB of nested lists became 16 MB), so the formatters only mark
 * where lists and items begin and end, and one pass over the converted text lays them out.
 */

/** Noncharacters plus the caller's nonce, so a page cannot spell a marker of its own. */
export interface ListMarkers {
  /** Followed by `<` where a list opens, `>` where it closes, or an item's label and `end`. */
  readonly lead: string;
  readonly end: string;
}

export const listMarkers = (nonce: string): ListMarkers => ({ lead: `\uFDD3${nonce}`, end: '\uFDD4' });

/** Any noncharacter of a list marker, a forged one included: what the layout leaves is dropped with it. */
export const STRAY_LIST_MARKER = /[\uFDD3\uFDD4]/g;

const BULLET = '-';

const startOf = (element: DomNode): number => {
  const declared = Number(element.attribs?.start);
  return Number.isInteger(declared) ? declared : 1;
};

/** A conversion's list state: its markers, and the count of each list open around the walk (null for a bulleted one). */
export interface ListConversion {
  readonly markers: ListMarkers;
  readonly counts: (number | null)[];
}

type Builder = Parameters<FormatCallback>[2];

/**
 * The `ul`/`ol` and `li` formatters, reading the conversion's state through `stateOf`. An ordered
 * list counts its items from its `start`; an item's `value` sets its number and the count goes on
 * from there. Each list's count lives on a stack, so nested lists count apart.
 */
export const listFormatters = (
  stateOf: (builder: Builder) => ListConversion,
): { list: FormatCallback; listItem: FormatCallback } => {
  const list: FormatCallback = (element, walk, builder) => {
    const { markers, counts } = stateOf(builder);
    counts.push(element.name === 'ol' ? startOf(element) - 1 : null);
    builder.openBlock({ leadingLineBreaks: 2 });
    builder.addLiteral(`${markers.lead}<`);
    walk(element.children, builder);
    builder.addLiteral(`${markers.lead}>`);
    builder.closeBlock({ trailingLineBreaks: 2 });
    counts.pop();
  };
  const listItem: FormatCallback = (element, walk, builder) => {
    const { markers, counts } = stateOf(builder);
    const count = counts.at(-1);
    let label = BULLET;
    if (count !== undefined && count !== null) {
      const value = Number(element.attribs?.value);
      const number = Number.isInteger(value) ? value : count + 1;
      counts[counts.length - 1] = number;
      label = String(number);
    }
    builder.openBlock({ leadingLineBreaks: 1 });
    builder.addLiteral(`${markers.lead}${label}${markers.end}`);
    walk(element.children, builder);
    builder.closeBlock({ trailingLineBreaks: 1 });
  };
  return { list, listItem };
};

const literal = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/**
 * Replaces the list markers with the layout: inside a list every blank line becomes a line break,
 * and an item's marker goes before its first words (an item that opens with a nested list gives
 * way to that list's first item). Where a heading or term opens (`headingOpen` and its level) an
 * item marker still waiting for words is dropped, so it never ends the section before the heading.
 */
export const layOutLists = (text: string, markers: ListMarkers, headingOpen: string): string => {
  const token = new RegExp(
    `${literal(markers.lead)}(?:([<>])|(${BULLET}|-?\\d{1,15})${literal(markers.end)})|(${literal(headingOpen)}[1-9])`,
    'g',
  );
  let out = '';
  let depth = 0;
  let pending: string | null = null;
  let cursor = 0;
  const emit = (segment: string): void => {
    let piece = depth > 0 ? segment.replace(/\n[^\S\n]*\n\s*/g, '\n') : segment;
    if (depth > 0 && (out === '' || out.endsWith('\n'))) piece = piece.replace(/^\s+/, '');
    if (pending !== null) {
      piece = piece.trimStart();
      if (piece === '') return;
      out += pending;
      pending = null;
    }
    out += piece;
  };
  for (let found = token.exec(text); found !== null; found = token.exec(text)) {
    emit(text.slice(cursor, found.index));
    cursor = found.index + found[0].length;
    const [, edge, label, headingOpen] = found;
    if (edge === '<') depth += 1;
    else if (edge === '>') {
      depth = Math.max(0, depth - 1);
      pending = null;
    } else if (label !== undefined) {
      pending = label === BULLET ? '- ' : `${label}. `;
    } else if (headingOpen !== undefined) {
      pending = null;
      out += headingOpen;
    }
  }
  emit(text.slice(cursor));
  return out;
};
