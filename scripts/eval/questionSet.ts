/**
 * The evaluation's question set (questions.json) and its check against the corpus: before anything
 * is scored, every expected answer must be in the documents said to hold it, every unanswerable
 * question's subject in none, and both sides of every contradiction must name their subject.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const QUESTION_KINDS = [
  'single_fact',
  'two_passages',
  'two_parts',
  'paraphrase',
  'list',
  'quantity',
  'unanswerable',
  'contradiction',
] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** The development half may be looked at while tuning; the held-out half never (split.ts assigns them). */
export const SPLITS = ['development', 'held_out'] as const;
export type Split = (typeof SPLITS)[number];

const QuestionSchema = z
  .object({
    id: z.string().regex(/^[a-z]+-\d{2}$/),
    kind: z.enum(QUESTION_KINDS),
    question: z.string().min(10),
    /** The entity asked about; must occur nowhere for an unanswerable question. */
    focus: z.string().min(1).optional(),
    /** Case-insensitive patterns; all must match an authorized answer for it to be correct. */
    answer: z.array(z.string().min(1)).min(1).optional(),
    /** two_parts: one pattern set per part; every part must be answered for `correct`. */
    parts: z
      .array(z.array(z.string().min(1)).min(1))
      .min(2)
      .optional(),
    /** list: one pattern per item the answer must quote. */
    items: z.array(z.string().min(1)).min(2).optional(),
    /** list: the items are steps and must appear in this order. */
    ordered: z.boolean().optional(),
    /** Documents that state the answer: paths relative to the corpus folder, or their last segments. */
    files: z.array(z.string().min(1)).min(1).optional(),
    split: z.enum(SPLITS).optional(),
  })
  .strict();
export type Question = z.infer<typeof QuestionSchema>;

const QuestionFileSchema = z
  .object({ about: z.string(), split: z.string().optional(), questions: z.array(QuestionSchema).min(1) })
  .strict();

export const QUESTIONS_FILE = new URL('./questions.json', import.meta.url);

export const loadQuestions = (file: URL | string = QUESTIONS_FILE): Question[] => {
  const questions = QuestionFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).questions;
  const ids = new Set(questions.map((q) => q.id));
  if (ids.size !== questions.length) throw new Error('question ids must be unique');
  return questions;
};

export const isAnswerable = (kind: QuestionKind): boolean => kind !== 'unanswerable' && kind !== 'contradiction';

/** What an answer must state, as groups: a group is met when all its patterns match (a part, an item, a pattern). */
export const answerGroups = (question: Question): RegExp[][] => {
  const compile = (p: string): RegExp => new RegExp(p, 'i');
  if (question.parts !== undefined) return question.parts.map((part) => part.map(compile));
  if (question.items !== undefined) return question.items.map((item) => [compile(item)]);
  return (question.answer ?? []).map((p) => [compile(p)]);
};

export const answerPatterns = (question: Question): RegExp[] => answerGroups(question).flat();

const mentions = (text: string, term: string): boolean => text.toLowerCase().includes(term.toLowerCase());

/** The text of the document a question's file label names (see labelMatches). */
const textOf = (texts: ReadonlyMap<string, string>, label: string): string | undefined => {
  const exact = texts.get(label);
  if (exact !== undefined) return exact;
  const matching = [...texts].filter(([name]) => name.endsWith(`/${label}`));
  return matching.length === 0 ? undefined : matching.map(([, text]) => text).join('\n');
};

/** What is wrong with one question against the corpus texts (base name -> plain text); empty when sound. */
const problemsOf = (question: Question, texts: ReadonlyMap<string, string>): string[] => {
  const problems: string[] = [];
  const listed = (question.files ?? []).map((name) => ({ name, text: textOf(texts, name) }));
  for (const { name, text } of listed) if (text === undefined) problems.push(`${name} is not in the corpus`);
  const present = listed.flatMap(({ text }) => (text === undefined ? [] : [text]));
  if (isAnswerable(question.kind)) {
    const stated = [question.answer, question.parts, question.items].filter((field) => field !== undefined).length;
    if (stated !== 1 || question.files === undefined) problems.push('needs files and one of answer, parts, items');
    if ((question.kind === 'two_parts') !== (question.parts !== undefined)) problems.push('parts are for two_parts');
    if ((question.kind === 'list') !== (question.items !== undefined)) problems.push('items are for list');
    for (const pattern of answerPatterns(question)) {
      if (!present.some((text) => pattern.test(text))) problems.push(`no listed file matches /${pattern.source}/`);
    }
    if (question.focus !== undefined && !present.some((text) => mentions(text, question.focus ?? '')))
      problems.push(`no listed file mentions ${question.focus}`);
  } else if (question.kind === 'unanswerable') {
    if (question.focus === undefined) problems.push('needs a focus');
    else {
      const holders = [...texts].filter(([, text]) => mentions(text, question.focus ?? '')).map(([name]) => name);
      if (holders.length > 0) problems.push(`${question.focus} occurs in ${holders.slice(0, 3).join(', ')}`);
    }
  } else {
    const sides = present.filter((text) => mentions(text, question.focus ?? '\u0000'));
    if (question.focus === undefined || sides.length < 2)
      problems.push('a contradiction needs two files naming its focus');
  }
  return problems.map((problem) => `${question.id}: ${problem}`);
};

/** Every problem of the set against the corpus; the evaluation refuses to score a set with any. */
export const checkQuestions = (questions: readonly Question[], texts: ReadonlyMap<string, string>): string[] =>
  questions.flatMap((question) => problemsOf(question, texts));
