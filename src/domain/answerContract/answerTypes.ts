/**
 * The kinds of answer a question asks for, read from how it is asked. A part of a question may
 * accept more than one ("which versions …" takes a version or a list of them); `explanation` asks
 * for no particular value and is satisfied by any sentence on the focus.
 *
 * The reading is English, in one place: the interrogative forms below. A question in another
 * language reads as `explanation`, so it is judged by focus coverage alone, never refused for a type.
 */
export const ANSWER_TYPES = [
  'quantity',
  'version_date',
  'name',
  'yes_no',
  'list',
  'procedure',
  'definition',
  'location',
  'reason',
  'explanation',
] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];

interface Form {
  readonly type: AnswerType;
  readonly pattern: RegExp;
}

// Nouns whose value is a number: "which port", "what size", "the largest …".
const QUANTITY_NOUN =
  'number|count|amount|size|length|width|height|depth|port|percentage|ratio|rate|limit|maximum|minimum|timeout|duration|level|range|exit (?:status|code)|status code|threshold|interval|capacity';
// Nouns whose value is a name: "which option", "what command", "what extension" …
const NAME_NOUN =
  'option|flag|switch|command|function|method|class|module|package|variable|setting|key|value|name|file|extension|suffix|prefix|format|style|mode|type|keyword|character|string|symbol|program|tool|library|macro|attribute|argument|parameter|header|field|directory|signal|encoding|protocol|mimetype|mime type|address|url|letter';

/** Checked in order; every form that matches contributes its type. */
const FORMS: readonly Form[] = [
  { type: 'procedure', pattern: /\b(steps?|in (?:what|which) order|in order|sequence of|procedure)\b/i },
  {
    type: 'list',
    pattern:
      /^(?:list|name|enumerate)\b|\bwhat (?:are|were) (?:all )?the (?:\w+ ){0,3}(?:\w+s)\b|\bwhich (?:\w+ ){0,2}\w+s (?:are|were|does|do|can|will|did|is)\b|\b(?:each|every|all(?: the)?)\s+(?:\w+\s+){0,2}(?:option|item|value|kind|type|style|format|mode|command|field|step)s?\b/i,
  },
  {
    type: 'quantity',
    pattern: new RegExp(
      `\\bhow (?:many|much|long|large|big|often|far|wide|deep|old)\\b|\\b(?:what|which) (?:is the )?(?:\\w+ ){0,3}(?:${QUANTITY_NOUN})s?\\b|\\b(?:largest|smallest|longest|shortest|fewest|highest|lowest|maximum|minimum|at most|at least|up to how)\\b`,
      'i',
    ),
  },
  {
    type: 'version_date',
    pattern:
      /\b(?:which|what) (?:\w+ ){0,2}(?:version|release|year|date)s?\b(?! control)|\bsince when\b|\bwhen (?:was|were|did)\b/i,
  },
  {
    type: 'location',
    pattern: /^where\b|\bwhere (?:is|are|does|do|can|should)\b|\bin which (?:file|directory|section|folder|place)\b/i,
  },
  {
    type: 'reason',
    pattern: /^why\b|\bwhy (?:is|are|does|do|should|would)\b|\bfor what reason\b|\bwhat is the (?:reason|purpose)\b/i,
  },
  {
    type: 'name',
    pattern: new RegExp(
      `\\b(?:what|which) (?:\\w+ ){0,3}(?:${NAME_NOUN})s?\\b|\\bdefault(?: value)?\\b|\\bset to\\b|^who\\b`,
      'i',
    ),
  },
  {
    type: 'definition',
    pattern:
      /^what (?:is|are) (?:an? |the )?[\w.-]+\??$|\bwhat does .+ (?:mean|do|stand for)\b|^define\b|\bmeaning of\b/i,
  },
  {
    type: 'yes_no',
    pattern: /^(?:is|are|does|do|can|could|will|would|should|has|have|was|were|did|may|must)\b(?!.*\bor\b)/i,
  },
];

/** "What does the lowest one mean?": the meaning is asked, whatever words describe the thing. */
const MEANING_ASKED = /^(?:and )?what (?:does|do) .+ (?:mean|stand for)\??$/i;

/** A question for several things asks for them all: a single name or sentence does not answer it. */
const ANSWERED_BY_ONE: ReadonlySet<AnswerType> = new Set(['name', 'definition', 'yes_no', 'explanation']);

/**
 * The answer types `part` accepts, most specific first: any one of them answers it. A list or a
 * procedure is not answered by one name, and a quantity or a version is answered by its number,
 * so those drop the single-value types; a version or a quantity stays beside a list (a range of versions, a count, is one value that answers "which versions").
 * `['explanation']` when the part asks for no type in particular.
 */
export const expectedTypes = (part: string): AnswerType[] => {
  const text = part.trim();
  if (MEANING_ASKED.test(text)) return ['definition'];
  const types = [...new Set(FORMS.filter((form) => form.pattern.test(text)).map((form) => form.type))];
  if (types.length === 0) return ['explanation'];
  const several = types.includes('list') || types.includes('procedure');
  // "Which port", "the largest file", "which version of the protocol": the value asked is the number.
  const measured = types.includes('quantity') || types.includes('version_date');
  return several || measured ? types.filter((type) => !ANSWERED_BY_ONE.has(type)) : types;
};
