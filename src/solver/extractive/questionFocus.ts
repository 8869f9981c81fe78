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
  /** The attribute the whole question asks for. */
  readonly attribute: AskedAttribute;
  /** Per identifier, the attribute its own clause asks for ("the default of X, and what does Y do?"). */
  readonly askedOf: ReadonlyMap<string, AskedAttribute>;
}

/** A new question inside the question: ", and what does …", "; how …". */
const CLAUSE_BREAK = /(?:,\s*|;\s*|\s+)and\s+(?=(?:what|which|how|who|when|where|why|does|do|is|are|can)\b)|;\s*/i;

const attributeOf = (question: string): AskedAttribute => {
  const q = question.toLowerCase();
  if (/\bdefaults?\b/.test(q)) return 'default';
  if (/\b(maximum|minimum|limit|at most|at least|how (many|much|long|large|big))\b/.test(q)) return 'limit';
  if (/^(what|which) (is|are|does|do)\b.*\b(mean|do|for)\b|^what (is|are) (an? |the )?[\w.-]+\??$/.test(q))
    return 'definition';
  return 'other';
};

export const questionFocus = (question: string): QuestionFocus => {
  const askedOf = new Map<string, AskedAttribute>();
  for (const clause of question.split(CLAUSE_BREAK)) {
    const attribute = attributeOf(clause.trim());
    for (const identifier of identifiersIn(clause)) if (!askedOf.has(identifier)) askedOf.set(identifier, attribute);
  }
  return { identifiers: identifiersIn(question), attribute: attributeOf(question), askedOf };
};

/** The attribute asked of one identifier: its clause's, else the question's. */
export const attributeFor = (focus: QuestionFocus, identifier: string): AskedAttribute =>
  focus.askedOf.get(identifier) ?? focus.attribute;
