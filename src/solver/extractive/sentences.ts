const MIN_SENTENCE = 12;
const MAX_SENTENCE = 400;

/** Table rows, fences and list bullets that carry no sentence of their own. */
const isStructural = (line: string): boolean =>
  /^\s*(\||```|---|===)/.test(line) || (line.match(/(?<=\s)\|(?=\s)/g)?.length ?? 0) >= 2;

/** A heading: a paragraph of one short line without sentence punctuation at its end. */
const isHeading = (lines: readonly string[]): boolean => {
  const only = lines.length === 1 ? lines[0]?.trim() : undefined;
  return only !== undefined && only.length < 80 && !/[.!?:;,)]$/.test(only);
};

/**
 * Sentences of a passage for extractive answers: paragraphs first (headings and table rows are
 * not sentences), then terminal punctuation followed by a capital or digit. Over-long fragments
 * (a table flattened into one line) are dropped rather than quoted.
 */
export const splitSentences = (text: string): string[] =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.split('\n').filter((line) => line.trim() !== '' && !isStructural(line)))
    .filter((lines) => !isHeading(lines))
    .map((lines) => lines.join(' '))
    .flatMap((paragraph) => paragraph.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z0-9"'([`*])/))
    .map((s) => s.trim())
    .filter((s) => s.length >= MIN_SENTENCE && s.length <= MAX_SENTENCE);
