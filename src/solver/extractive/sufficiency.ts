/**
 * What a sentence must state for it to answer the asked attribute, and the names a question
 * insists on: the sufficiency checks both answer selections share.
 */
import type { AskedAttribute } from './questionFocus.js';

/** Mentions a default at all. */
export const DEFAULT_STATEMENT = /\bdefaults?\b|\bdefault value\b/i;
/** States the default as its point ("The default is …", "Defaults to …"), not in passing. */
export const DEFAULT_VALUE_STATEMENT = /\bdefault(?: value)? is\b|\bdefaults to\b|\bdefault:/i;
const QUANTITY = /\d|\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|million|unlimited)\b/i;
/** States a quantity as the value ("defaults to 50", "at most 8"), not in passing ("setting this to 0 disables it"). */
const QUANTITY_VALUE_STATEMENT =
  /\b(?:default(?: value)? is|defaults to|is (?:currently |approximately )?|at most|at least|up to|maximum(?: of| is)?|minimum(?: of| is)?|limit(?: of| is)?)\s+(?:\d|zero|one|two|three|four|five|six|seven|eight|nine|ten)/i;

/** The sentence states the kind of thing asked: a default for a default, a quantity for a limit. */
export const statesAttribute = (sentence: string, attribute: AskedAttribute): boolean => {
  if (attribute === 'default') return DEFAULT_STATEMENT.test(sentence);
  if (attribute === 'limit') return QUANTITY.test(sentence);
  return true;
};

/** The strength of a sentence that states the attribute as its point. */
export const fullStrength = (attribute: AskedAttribute): number =>
  attribute === 'default' || attribute === 'limit' ? 2 : 1;

/** How strongly a sentence states the attribute: 2 as its point, 1 in passing, 0 not at all. */
export const attributeStrength = (sentence: string, attribute: AskedAttribute): number => {
  if (!statesAttribute(sentence, attribute)) return 0;
  if (attribute === 'default') return DEFAULT_VALUE_STATEMENT.test(sentence) ? 2 : 1;
  if (attribute === 'limit') return QUANTITY_VALUE_STATEMENT.test(sentence) ? 2 : 1;
  return 1;
};

/**
 * The names a question insists on: capitalised words past its first word (product and project
 * names: "GitHub", "GitLab") and abbreviation-shaped words (no vowel or letters with digits:
 * "zstd", "lz4", "sha256"). An answer must come from sources that name them, or it is about
 * something else: the compression levels of zlib are no answer about zstd.
 */
export const insistedNames = (question: string): string[] => {
  const proper = [...question.matchAll(/(?<=\s)[A-Z][\w-]*[a-z][\w-]*/g)].map((m) => m[0]).filter((w) => w !== 'I');
  const abbreviations = [...question.matchAll(/(?<![\w.'’-])[a-z][a-z0-9]+(?![\w.-]\w)/g)]
    .map((m) => m[0])
    .filter((word) => /\d/.test(word) || !/[aeiouy]/.test(word));
  return [...proper, ...abbreviations];
};

export const namedIn = (text: string, name: string): boolean => text.toLowerCase().includes(name.toLowerCase());
