/**
 * Identifiers a text names (settings, options, functions, commands), kept whole: `gc.auto`,
 * `snake_case`, `camelCase`, `--depth`, `\section`, `push()`. Questions are searched and answered
 * by them, so they are found one way for both.
 */
import { IDENTIFIER_PATTERN } from './answerValues.js';
import { escapeRegExp } from './regExp.js';

const IDENTIFIER = new RegExp(IDENTIFIER_PATTERN, 'g');
const CALL = /([A-Za-z_][\w.]*)\(\)/g;
// An identifier starts where no word character or option dash precedes it.
const STARTS_CLEAN = /(^|[^\w\-.\\])$/;

/** Trailing sentence punctuation is not part of a name (`gc.auto?`, `core.eol.`). */
const trimmed = (identifier: string): string => identifier.replace(/[.,;:!?]+$/, '');

/** The identifiers named in `text`, as written, in order, without duplicates or names inside longer ones. */
export const identifiersIn = (text: string): string[] => {
  const found: string[] = [];
  for (const match of text.matchAll(CALL)) found.push(`${match[1]}()`);
  for (const match of text.matchAll(IDENTIFIER)) {
    if (!STARTS_CLEAN.test(text.slice(0, match.index))) continue;
    const identifier = trimmed(match[0]);
    // A lone dash-word inside prose ("built-in", "e-mail") is no option: options start the word.
    if (identifier.length >= 2 && !found.some((known) => known.includes(identifier))) found.push(identifier);
  }
  return [...new Set(found)];
};

/** The identifier as a whole name in `text`, case-insensitively: `gc.auto` is not in `gc.autoDetach`. */
export const namesIdentifier = (text: string, identifier: string): boolean =>
  new RegExp(`(?<![\\w.-])${escapeRegExp(identifier)}(?![\\w-]|\\.\\w)`, 'i').test(text);
