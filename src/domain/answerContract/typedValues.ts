/**
 * Whether a stretch of answer text carries a value of an answer type: a number for a quantity, a
 * version or date, a name, two or more items for a list, ordered steps for a procedure. One
 * detector per type, deliberately permissive within its type: the contract refuses an answer
 * that carries no value of the asked kind at all (a lead-in sentence for a list, a description
 * for "how many"), not one whose value is shaped unusually.
 */
import { answerValues } from '../answerValues.js';
import { LIST_ITEM_LINE } from '../listItem.js';
import { sentencesOf } from '../objectiveRelevance.js';
import type { AnswerType } from './answerTypes.js';

// "one of the options", "one or more" name no quantity.
const NUMBER_WORD =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|unlimited|infinite|twice|half|double|dozen)\b(?!\s+(?:of|or|another|by one)\b)/i;
/** A numeral, not a digit inside a name ("V3D", "x86", "ext4"). */
const NUMERAL = /(?<![\p{L}_])\d/u;
const VERSION = /\b\d+(?:\.\d+)+\b|\bv\d+\b|\bversion \d/i;
const DATE =
  /\b(?:1[89]|20)\d\d\b|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
/** A value stated as the point of a sentence: "default is X", "defaults to X", "Default: X", "set to X". */
const STATED_VALUE = /\b(?:default(?: value)?(?: is|:)|defaults to|(?:is )?set to|value is|is called|named)\s*\S/i;
const KEYWORD_VALUE = /\b(?:true|false|yes|no|on|off|none|null|empty|auto|always|never|enabled|disabled)\b/i;
/** Quoted the typographic ways manuals quote (‘q’, 'dev', «x»), besides those answerValues reads. */
const QUOTED = /‘[^’\n]{1,80}’|'[^'\n]{1,80}'|«[^»\n]{1,80}»/;
const FILE_LIKE = /(?:^|[\s(])\.[A-Za-z0-9]{1,8}\b|\b[\w-]+\.[A-Za-z0-9]{1,6}\b|[\w.-]*\/[\w./-]+|[A-Za-z]:\\/;
/** A capitalised word past the first of its sentence: a proper name (Werkzeug, PyPy, ClearCase). */
const PROPER_NAME = /(?<=[a-z0-9,;:)]\s+)[A-Z][\w+-]*[a-zA-Z0-9]/;
/** A list item's line, as the library writes items (src/domain/listItem.ts). */
const LIST_LINE = LIST_ITEM_LINE;
const COMMAND_LINE = /^\s*[$#>]\s+\S/gm;
/** "A, B and C", "A, B, or C": a written series of three or more. */
const SERIES = /[^\s,;:]+(?:\s+[^\s,;:]+){0,3},\s+[^\s,;:]+(?:\s+[^\s,;:]+){0,3},?\s+(?:and|or)\s+\S/;
const LOCATIVE =
  /\b(?:in|under|inside|within|beneath|located|stored|found|from|at) (?:the |a |an |your |its |each )?\S/i;
const CAUSAL =
  /\b(?:because|since|so that|in order to|due to|as a result|otherwise|prevents?|avoids?|ensures?|allows?|lets?|reason|purpose|therefore|thus|hence|so as to|which means|would (?:otherwise|be)|cannot|can't|for (?:security|performance|compatibility))\b/i;

const count = (text: string, pattern: RegExp): number => [...text.matchAll(pattern)].length;

/** How many distinct checkable values (numbers, identifiers, quoted strings) the text carries. */
const distinctValues = (text: string): number => new Set(answerValues(text).map((v) => v.value.toLowerCase())).size;

/** Sentences of a stretch of answer text, for counting steps. */
const sentenceCount = (text: string): number => sentencesOf(text).filter((s) => /[\p{L}\p{N}]/u.test(s)).length;

const carriesName = (text: string): boolean =>
  answerValues(text).length > 0 ||
  STATED_VALUE.test(text) ||
  KEYWORD_VALUE.test(text) ||
  QUOTED.test(text) ||
  FILE_LIKE.test(text) ||
  PROPER_NAME.test(text);

const DETECTORS: Readonly<Record<AnswerType, (text: string) => boolean>> = {
  quantity: (text) => NUMERAL.test(text) || NUMBER_WORD.test(text),
  version_date: (text) => VERSION.test(text) || DATE.test(text),
  name: carriesName,
  yes_no: () => true,
  // Items are parallel: list lines, a written series, or three values in one sentence — not values scattered over prose.
  list: (text) =>
    count(text, LIST_LINE) >= 2 || text.split('\n').some((line) => SERIES.test(line) || distinctValues(line) >= 3),
  procedure: (text) => count(text, LIST_LINE) >= 2 || count(text, COMMAND_LINE) >= 2 || sentenceCount(text) >= 2,
  definition: () => true,
  location: (text) =>
    FILE_LIKE.test(text) || LOCATIVE.test(text) || answerValues(text).some((v) => v.kind !== 'number'),
  reason: (text) => CAUSAL.test(text),
  explanation: () => true,
};

/** Whether `text` carries a value of `type`. Empty text carries none. */
export const carriesType = (text: string, type: AnswerType): boolean =>
  /[\p{L}\p{N}]/u.test(text) && DETECTORS[type](text);

/** Whether `text` carries a value of any of `types`. */
export const carriesAnyType = (text: string, types: readonly AnswerType[]): boolean =>
  types.some((type) => carriesType(text, type));
