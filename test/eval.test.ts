/**
 * `npm run eval` (scripts/eval/): the scoring the answer-quality figures rest on, the question
 * set's check against the corpus, and the plain BM25 baseline retrieval is compared with.
 */
import { describe, expect, it } from 'vitest';
import { buildBm25 } from '../scripts/eval/bm25.js';
import { fileURLToPath } from 'node:url';
import { CORPORA, labelMatches, labelOf } from '../scripts/eval/corpus.js';
import {
  checkQuestions,
  isAnswerable,
  loadQuestions,
  QUESTION_KINDS,
  type Question,
} from '../scripts/eval/questionSet.js';
import { scoreOutcome, summarize, type RunOutcome } from '../scripts/eval/score.js';
import { assignSplits } from '../scripts/eval/split.js';

const outcome = (over: Partial<RunOutcome>): RunOutcome => ({
  authorized: false,
  answer: null,
  contradictions: 0,
  recommendedNextAction: 'stop',
  stepsUsed: 1,
  authority: null,
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

  it('a two-part answer is correct only with every part, partial with some', () => {
    const twoParts: Question = {
      ...fact,
      id: 'two-01',
      kind: 'two_parts',
      answer: undefined,
      parts: [['default\\W{0,4}true'], ['default\\W{0,4}false']],
    };
    expect(
      scoreOutcome(twoParts, outcome({ authorized: true, answer: 'Default: True. [1] Default: False. [2]' })),
    ).toBe('correct');
    expect(scoreOutcome(twoParts, outcome({ authorized: true, answer: 'Default: True. [1]' }))).toBe('partial');
    expect(scoreOutcome(twoParts, outcome({ authorized: true, answer: 'Browsers will not allow it. [1]' }))).toBe(
      'authorized_but_wrong',
    );
  });

  it('a list needs every item, a procedure every step in order; the lead-in alone is wrong', () => {
    const list: Question = {
      ...fact,
      id: 'list-01',
      kind: 'list',
      answer: undefined,
      items: ['Werkzeug', 'Jinja', 'Click'],
    };
    const steps: Question = { ...list, id: 'list-02', items: ['mkdir', 'cd', 'venv'], ordered: true };
    expect(scoreOutcome(list, outcome({ authorized: true, answer: 'Click, Jinja and Werkzeug.' }))).toBe('correct');
    expect(scoreOutcome(list, outcome({ authorized: true, answer: 'Jinja and Click.' }))).toBe('partial');
    expect(scoreOutcome(list, outcome({ authorized: true, answer: 'These distributions are installed:' }))).toBe(
      'authorized_but_wrong',
    );
    expect(scoreOutcome(steps, outcome({ authorized: true, answer: 'mkdir p; cd p; python3 -m venv venv' }))).toBe(
      'correct',
    );
    expect(scoreOutcome(steps, outcome({ authorized: true, answer: 'python3 -m venv venv; mkdir p; cd p' }))).toBe(
      'partial',
    );
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

  it('the committed Git set has at least 60 questions of its five kinds, at least five of each', () => {
    const questions = loadQuestions();
    expect(questions.length).toBeGreaterThanOrEqual(60);
    for (const kind of ['single_fact', 'two_passages', 'paraphrase', 'unanswerable', 'contradiction'] as const)
      expect(questions.filter((q) => q.kind === kind).length).toBeGreaterThanOrEqual(5);
  });
});

describe('the corpora and their question sets', () => {
  const questionsOf = (questions: string): Question[] =>
    loadQuestions(fileURLToPath(new URL(`../scripts/eval/${questions}`, import.meta.url)));

  it('every corpus beyond the Git manual has at least 40 questions of every kind, a fifth of them unanswerable', () => {
    for (const spec of CORPORA.filter((c) => c.name !== 'git')) {
      const questions = questionsOf(spec.questions);
      expect(questions.length, spec.name).toBeGreaterThanOrEqual(40);
      for (const kind of ['single_fact', 'two_parts', 'paraphrase', 'list', 'quantity', 'unanswerable'] as const)
        expect(questions.filter((q) => q.kind === kind).length, `${spec.name} ${kind}`).toBeGreaterThanOrEqual(5);
      expect(questions.filter((q) => !isAnswerable(q.kind)).length / questions.length).toBeGreaterThanOrEqual(0.2);
    }
  });

  it('never uses the manuals kept for the independent evaluation', () => {
    for (const spec of CORPORA) expect(spec.package).not.toMatch(/postgres|sqlite|^r-/i);
  });

  it('every question has its recorded half, the halves of each kind differ by at most one, and the split is reproducible', () => {
    for (const spec of CORPORA) {
      const questions = questionsOf(spec.questions);
      for (const kind of QUESTION_KINDS) {
        const ofKind = questions.filter((q) => q.kind === kind);
        const development = ofKind.filter((q) => q.split === 'development').length;
        const heldOut = ofKind.filter((q) => q.split === 'held_out').length;
        expect(development + heldOut, `${spec.name} ${kind}`).toBe(ofKind.length);
        expect(Math.abs(development - heldOut)).toBeLessThanOrEqual(1);
      }
      const fresh = assignSplits(
        spec.name,
        questions.map(({ split: _, ...q }) => q),
      );
      expect(fresh.map((q) => q.split)).toEqual(questions.map((q) => q.split));
    }
  });

  it('a recorded split never moves when questions are added', () => {
    const base = assignSplits('t', [
      { id: 'single-01', kind: 'single_fact' as const },
      { id: 'single-02', kind: 'single_fact' as const },
    ]);
    const grown = assignSplits('t', [...base, { id: 'single-03', kind: 'single_fact' as const }]);
    expect(grown.slice(0, 2)).toEqual(base);
    expect(new Set(base.map((q) => q.split))).toEqual(new Set(['development', 'held_out']));
  });

  it('names documents by their path under the corpus folder and matches a label by its last segments', () => {
    expect(labelOf('/d/html', '/d/html/deploying/index.html')).toBe('deploying/index.html');
    expect(labelOf('/d/html', '/elsewhere/site-notes.html')).toBe('site-notes.html');
    expect(labelMatches('index.html', 'deploying/index.html')).toBe(true);
    expect(labelMatches('deploying/index.html', 'deploying/index.html')).toBe(true);
    expect(labelMatches('ndex.html', 'deploying/index.html')).toBe(false);
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
