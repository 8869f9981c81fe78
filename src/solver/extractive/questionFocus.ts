/**
 * What a question is about and what it asks of it: the identifiers it names (settings, options,
 * functions, commands), kept whole and matched exactly, and the asked attribute (a default value,
 * a limit, a definition …). The sufficiency gate and the answer selection read both.
 */
import { IDENTIFIER_PATTERN } from '../../domain/answerValues.js';
import { escapeRegExp } from '../../domain/regExp.js';

export const ASKED_ATTRIBUTES = ['default', 'limit', 'definition', 'other'] as const;
export type AskedAttribute = (typeof ASKED_ATTRIBUTES)[number];

export interface QuestionFocus {
  /** Identifiers as written in the question, in order, without duplicates. */
  readonly identifiers: readonly string[];
  readonly attribute: AskedAttribute;
}

const IDENTIFIER = new RegExp(IDENTIFIER_PATTERN, 'g');
const CALL = /([A-Za-z_][\w.]*)\(\)/g;
// An identifier starts where no word character or option dash precedes it.
const STARTS_CLEAN = /(^|[^\w\-.\\])$/;

const attributeOf = (question: string): AskedAttribute => {
  const q = question.toLowerCase();
  if (/\bdefaults?\b/.test(q)) return 'default';
  if (/\b(maximum|minimum|limit|at most|at least|how (many|much|long|large|big))\b/.test(q)) return 'limit';
  if (/^(what|which) (is|are|does|do)\b.*\b(mean|do|for)\b|^what (is|are) (an? |the )?[\w.-]+\??$/.test(q))
    return 'definition';
  return 'other';
};

/** Trailing sentence punctuation is not part of a name (`gc.auto?`, `core.eol.`). */
const trimmed = (identifier: string): string => identifier.replace(/[.,;:!?]+$/, '');

export const questionFocus = (question: string): QuestionFocus => {
  const found: string[] = [];
  for (const match of question.matchAll(CALL)) found.push(`${match[1]}()`);
  for (const match of question.matchAll(IDENTIFIER)) {
    if (!STARTS_CLEAN.test(question.slice(0, match.index))) continue;
    const identifier = trimmed(match[0]);
    // A lone dash-word inside prose ("built-in", "e-mail") is no option: options start the word.
    if (identifier.length >= 2 && !found.some((known) => known.includes(identifier))) found.push(identifier);
  }
  return { identifiers: [...new Set(found)], attribute: attributeOf(question) };
};

/** The identifier as a whole name in `text`, case-insensitively: `gc.auto` is not in `gc.autoDetach`. */
export const namesIdentifier = (text: string, identifier: string): boolean =>
  new RegExp(`(?<![\\w.-])${escapeRegExp(identifier)}(?![\\w-]|\\.\\w)`, 'i').test(text);
