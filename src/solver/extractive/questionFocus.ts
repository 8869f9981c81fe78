/**
 * What a question is about and what it asks of it: the identifiers it names (settings, options,
 * functions, commands), kept whole and matched exactly, and the asked attribute (a default value,
 * a limit, a definition …). The sufficiency gate and the answer selection read both.
 */
import { identifiersIn } from '../../domain/identifiers.js';

export const ASKED_ATTRIBUTES = ['default', 'limit', 'definition', 'other'] as const;
export type AskedAttribute = (typeof ASKED_ATTRIBUTES)[number];

export interface QuestionFocus {
  /** Identifiers as written in the question, in order, without duplicates. */
  readonly identifiers: readonly string[];
  readonly attribute: AskedAttribute;
}

const attributeOf = (question: string): AskedAttribute => {
  const q = question.toLowerCase();
  if (/\bdefaults?\b/.test(q)) return 'default';
  if (/\b(maximum|minimum|limit|at most|at least|how (many|much|long|large|big))\b/.test(q)) return 'limit';
  if (/^(what|which) (is|are|does|do)\b.*\b(mean|do|for)\b|^what (is|are) (an? |the )?[\w.-]+\??$/.test(q))
    return 'definition';
  return 'other';
};

export const questionFocus = (question: string): QuestionFocus => ({
  identifiers: identifiersIn(question),
  attribute: attributeOf(question),
});
