/**
 * `npm run eval` (scripts/eval/): the scoring the answer-quality figures rest on, the question
 * set's check against the corpus, and the plain BM25 baseline retrieval is compared with.
 */
import { describe, expect, it } from 'vitest';
import { buildBm25 } from '../scripts/eval/bm25.js';
import { checkQuestions, loadQuestions, QUESTION_KINDS, type Question } from '../scripts/eval/questionSet.js';
import { scoreOutcome, summarize, type RunOutcome } from '../scripts/eval/score.js';

const outcome = (over: Partial<RunOutcome>): RunOutcome => ({
  authorized: false,
  answer: null,
  contradictions: 0,
  recommendedNextAction: 'stop',
  stepsUsed: 1,
  ...over,
});

const fact: Question = {
  id: 'single-01',
  kind: 'single_fact',
  question: 'What is the default value of gc.auto?',
  focus: 'gc.auto',
  answer: ['default[^.]{0,40}\\b6700\\b'],
  files: ['git-config.html'],
};
const pair: Question = { ...fact, id: 'two-01', kind: 'two_passages', answer: ['\\b6700\\b', '\\b50\\b'] };
const unanswerable: Question = {
  id: 'unanswerable-01',
  kind: 'unanswerable',
  question: 'Default of core.turbo?',
  focus: 'core.turbo',
};
const conflict: Question = {
  ...unanswerable,
  id: 'contradiction-01',
  kind: 'contradiction',
  files: ['a.html', 'b.html'],
};

describe('scoring an outcome', () => {
  it('an authorized answer is correct only when it states the value asked for', () => {
    expect(scoreOutcome(fact, outcome({ authorized: true, answer: 'The default value is 6700.' }))).toBe('correct');
    // The neighbouring setting's default, as the issue observed: authorized, and wrong.
    expect(scoreOutcome(fact, outcome({ authorized: true, answer: 'The default value is 50.' }))).toBe(
      'authorized_but_wrong',
    );
    // The number alone, not stated as the default, does not pass.
    expect(scoreOutcome(fact, outcome({ authorized: true, answer: 'About 6700 loose objects.' }))).toBe(
      'authorized_but_wrong',
    );
  });

  it('a two-passage answer with one of its two facts is partial', () => {
    expect(scoreOutcome(pair, outcome({ authorized: true, answer: '6700 and 50' }))).toBe('correct');
    expect(scoreOutcome(pair, outcome({ authorized: true, answer: 'only 6700' }))).toBe('partial');
  });

  it('declining is a miss on an answerable question and right on an unanswerable one', () => {
    expect(scoreOutcome(fact, outcome({}))).toBe('declined');
    expect(scoreOutcome(unanswerable, outcome({}))).toBe('declined_correctly');
    expect(scoreOutcome(unanswerable, outcome({ authorized: true, answer: 'The default is true.' }))).toBe(
      'authorized_but_wrong',
    );
  });

  it('a contradiction is right only when declined with the conflict reported', () => {
    expect(scoreOutcome(conflict, outcome({ contradictions: 1 }))).toBe('declined_correctly');
    expect(scoreOutcome(conflict, outcome({}))).toBe('declined');
    expect(scoreOutcome(conflict, outcome({ authorized: true, answer: 'Default is 500.' }))).toBe(
      'authorized_but_wrong',
    );
  });

  it('the summary counts the right verdict per kind', () => {
    const summaries = summarize([
      { question: fact, outcome: outcome({}), verdict: 'declined' },
      { question: { ...fact, id: 'single-02' }, outcome: outcome({}), verdict: 'correct' },
      { question: unanswerable, outcome: outcome({}), verdict: 'declined_correctly' },
    ]);
    expect(summaries.find((s) => s.kind === 'single_fact')?.rightShare).toBe(0.5);
    expect(summaries.find((s) => s.kind === 'unanswerable')?.rightShare).toBe(1);
  });
});

describe('the question set', () => {
  const texts = new Map([
    [
      'git-config.html',
      'gc.auto When there are approximately more than this many loose objects. The default value is 6700.',
    ],
    ['a.html', 'core.turbo Default is 1.'],
    ['b.html', 'core.turbo Default is 2.'],
  ]);

  it('holds when every answer is in its files and every unanswerable subject is nowhere', () => {
    expect(checkQuestions([fact, { ...unanswerable, focus: 'core.fastest' }], texts)).toEqual([]);
    expect(checkQuestions([conflict], texts)).toEqual([]);
  });

  it('names each question that does not hold', () => {
    expect(checkQuestions([{ ...fact, answer: ['default[^.]{0,40}\\b6800\\b'] }], texts)).toEqual([
      'single-01: no listed file matches /default[^.]{0,40}\\b6800\\b/',
    ]);
    expect(checkQuestions([{ ...fact, files: ['missing.html'] }], texts)).toContain(
      'single-01: missing.html is not in the corpus',
    );
    expect(checkQuestions([unanswerable], texts)).toEqual(['unanswerable-01: core.turbo occurs in a.html, b.html']);
    expect(checkQuestions([{ ...conflict, files: ['a.html'] }], texts)).toEqual([
      'contradiction-01: a contradiction needs two files naming its focus',
    ]);
  });

  it('the committed set has at least 60 questions of the five kinds, at least five of each', () => {
    const questions = loadQuestions();
    expect(questions.length).toBeGreaterThanOrEqual(60);
    for (const kind of QUESTION_KINDS)
      expect(questions.filter((q) => q.kind === kind).length).toBeGreaterThanOrEqual(5);
  });
});

describe('the BM25 baseline', () => {
  it('ranks the passage with the rarer matching term first and ignores passages without any', () => {
    const index = buildBm25([
      { file: 'common.html', text: 'the default value is one' },
      { file: 'rare.html', text: 'gc auto the default value is 6700' },
      { file: 'other.html', text: 'nothing relevant here' },
    ]);
    expect(index.topFiles('default of gc auto', 5)).toEqual(['rare.html', 'common.html']);
    expect(index.topFiles('zzz', 5)).toEqual([]);
  });
});
