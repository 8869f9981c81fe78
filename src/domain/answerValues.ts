/**
 * The checkable values of an answer: numbers, identifiers and quoted strings. A written answer may
 * paraphrase its sources, but each of these must occur in the passages it cites, or it was made up.
 */

/** Identifier shapes: scoped (`APT::Periodic::MaxAge`) and dotted names, snake_case, camelCase, command-line options, TeX-like commands. */
export const IDENTIFIER_PATTERN = [
  String.raw`[A-Za-z_][\w-]*(?:::[A-Za-z_][\w-]*)+`,
  String.raw`[A-Za-z_][\w-]*(?:\.(?:<[\w-]+>|[A-Za-z_][\w-]*))+`,
  '[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+',
  '[a-z]+[A-Z][A-Za-z0-9]*',
  String.raw`--?[A-Za-z][\w-]*`,
  String.raw`\\[A-Za-z]+`,
].join('|');

const NUMBER = /(?<![\w.])\d+(?:[.,]\d+)*(?![\w])/g;
const QUOTED = /"([^"\n]{2,80})"|`([^`\n]{2,80})`|“([^”\n]{2,80})”/g;
// An identifier must start a word: the dash of "built-in" starts no option.
const IDENTIFIER = new RegExp(`(?<![\\w\\-.\\\\])(?:${IDENTIFIER_PATTERN})`, 'g');
/** Citation markers ([1], [2]) and list numbering are the answer's layout, not its values. */
const LAYOUT = /\[\d+\]|^\s*\d+[.)]\s/gm;

export interface AnswerValue {
  readonly kind: 'number' | 'identifier' | 'quoted';
  readonly value: string;
}

export const answerValues = (text: string): AnswerValue[] => {
  const body = text.replace(LAYOUT, ' ');
  const found = new Map<string, AnswerValue>();
  const add = (kind: AnswerValue['kind'], value: string): void => {
    const cleaned = value.replace(/[.,;:!?]+$/, '');
    if (cleaned.length > 0 && !found.has(`${kind}:${cleaned}`))
      found.set(`${kind}:${cleaned}`, { kind, value: cleaned });
  };
  for (const m of body.matchAll(NUMBER)) add('number', m[0]);
  for (const m of body.matchAll(IDENTIFIER)) if (m[0].length >= 3) add('identifier', m[0]);
  for (const m of body.matchAll(QUOTED)) add('quoted', m[1] ?? m[2] ?? m[3] ?? '');
  return [...found.values()];
};

const normalized = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ');

/** The values of `text` that occur in none of `sources` (case- and spacing-insensitive). */
export const ungroundedValues = (text: string, sources: readonly string[]): AnswerValue[] => {
  const haystack = normalized(sources.join('\n'));
  return answerValues(text).filter((v) => !haystack.includes(normalized(v.value)));
};
