import { describe, expect, it } from 'vitest';
import { deriveAnswerContract } from './contract.js';
import type { TermRarity } from './focusTerms.js';
import { judgeAnswer } from './judge.js';
import { questionParts } from './questionParts.js';

/** A corpus of 1,000 passages where "default" is everywhere and "partitioned" nowhere. */
const RARITY: TermRarity = {
  units: 1000,
  frequency: (word) =>
    ({ default: 400, value: 500, cookie: 30, session: 40, partitioned: 0, processes: 100, workers: 100 })[word] ?? 20,
};

const judge = (question: string, answer: string, titles: readonly string[] = ['Configuration'], least = 0.6) => {
  const cited = titles.map((title, i) => ({ ref: `artifact:${i + 1}`, title, excerpt: answer }));
  return judgeAnswer(
    deriveAnswerContract(question, RARITY, least),
    answer,
    cited.map((c) => c.ref),
    cited,
  );
};

describe('the answer contract', () => {
  it('splits a question into the parts it asks, and a part per name asked the same of several', () => {
    expect(questionParts('What is the default port, and which option changes it?')).toEqual([
      'What is the default port',
      'which option changes it?',
    ]);
    expect(questionParts('What is the tab width and the output width?')).toHaveLength(1);
    expect(deriveAnswerContract('What are the defaults of gc.auto and gc.autoPackLimit?').parts).toHaveLength(2);
  });

  it('weights focus words by rarity in the admitted corpus, uniformly without statistics', () => {
    const weighted = deriveAnswerContract('What is the default of the partitioned cookie?', RARITY);
    const weight = (term: string) => weighted.parts[0]?.focus_terms.find((t) => t.term === term)?.weight ?? 0;
    expect(weighted.weighting).toBe('corpus');
    expect(weight('partitioned')).toBeGreaterThan(weight('cookie'));
    expect(weight('cookie')).toBeGreaterThan(weight('default'));
    const uniform = deriveAnswerContract('What is the default of the partitioned cookie?');
    expect(uniform.weighting).toBe('uniform');
    expect(new Set(uniform.parts[0]?.focus_terms.map((t) => t.weight))).toEqual(new Set([1]));
  });

  it('authorizes a statement on focus that carries a value of the asked type', () => {
    const verdict = judge('What is the default value of SESSION_COOKIE_NAME?', "Default: 'session' [1]", [
      'Configuration — SESSION_COOKIE_NAME',
    ]);
    expect(verdict.reason).toBeNull();
  });

  it('refuses another entity’s value: focus_not_covered', () => {
    // The rare focus word is nowhere in what the answer says or cites.
    expect(
      judge('What is the default of the partitioned cookie?', 'The default cookie name is "session". [1]').reason,
    ).toBe('focus_not_covered');
    // A title naming the setting does not make any sentence under it about the setting's default.
    expect(
      judge('What is the default value of SESSION_COOKIE_NAME?', 'Deprecated since version 2.2. [1]', [
        'Configuration — SESSION_COOKIE_NAME',
      ]).reason,
    ).toBe('focus_not_covered');
  });

  it('refuses an answer without a value of the asked type: answer_type_missing', () => {
    expect(
      judge(
        'How many workers does the cookie session pool start?',
        'The session pool starts cookie workers on demand. [1]',
      ).reason,
    ).toBe('answer_type_missing');
    expect(
      judge('How many workers does the cookie session pool start?', 'The session pool starts 4 cookie workers. [1]')
        .reason,
    ).toBeNull();
    // A digit inside a name ("V3D", "x86") is no number.
    expect(
      judge('How many workers does the cookie session pool start?', 'The session pool starts V3D cookie workers. [1]')
        .reason,
    ).toBe('answer_type_missing');
    // A list question answered with its lead-in only.
    const leadIn = 'The session store accepts these cookie backends: [1]';
    expect(judge('Which cookie backends does the session store accept?', leadIn).reason).toBe('answer_type_missing');
    expect(
      judge('Which cookie backends does the session store accept?', `${leadIn}\n- memory [1]\n- redis [1]\n- files [1]`)
        .reason,
    ).toBeNull();
  });

  it('refuses half an answer to a two-part question: part_unanswered', () => {
    const question = 'Which port does the session cookie server use, and which protocol encrypts the cookie?';
    expect(judge(question, 'The session cookie server uses port 8443. [1]').reason).toBe('part_unanswered');
    expect(
      judge(question, 'The session cookie server uses port 8443. [1] The protocol TLS encrypts the cookie. [1]').reason,
    ).toBeNull();
  });

  it('does not count the names the question itself gives as the value', () => {
    expect(judge('What is the default value of cache.size?', 'cache.size sets the default cache. [1]').reason).toBe(
      'answer_type_missing',
    );
  });

  it('lets a paraphrase say one common focus word differently, never the rarest', () => {
    const strict = (question: string, answer: string) => judge(question, answer, ['Configuration'], 0.99).reason;
    const question = 'How many session processes does the cookie pool start by default?';
    // "processes" said as "workers": one common word of five, the rare ones ("cookie", "session") said.
    expect(strict(question, 'The cookie pool starts 4 session workers by default. [1]')).toBeNull();
    // Two words said differently is more than a paraphrase.
    expect(strict(question, 'The cookie pool runs 4 workers by default. [1]')).toBe('focus_not_covered');
    // The rarest word ("partitioned", which no passage holds) is never excused.
    expect(
      strict(
        'How many partitioned session cookies does the pool keep by default?',
        'The pool keeps 4 session cookies by default. [1]',
      ),
    ).toBe('focus_not_covered');
  });

  it('reads a value with the sentence before it in the same passage as its subject', () => {
    const question = 'How many parallel workers update the cookie session store by default?';
    const answer = 'The number of parallel workers that update the cookie session store. [1] The default is 4. [1]';
    expect(judge(question, answer, ['Configuration'], 0.99).reason).toBeNull();
    // Each sentence alone covers too little of the focus.
    expect(judge(question, 'The default is 4. [1]', ['Configuration'], 0.99).reason).toBe('focus_not_covered');
    // The subject must be in the same passage: the first sentence is on focus, but the number said
    // in another passage is not its value.
    expect(
      judge(
        question,
        'The number of parallel workers that update the cookie session store. [1] The default is 4. [2]',
        ['Configuration', 'Other settings'],
        0.99,
      ).reason,
    ).toBe('answer_type_missing');
  });

  it('judges a written answer by the cited sentence it restates', () => {
    const cited = [
      { ref: 'artifact:1', title: 'Atlas', excerpt: 'Paris is the capital of France. Lyon is its third city.' },
    ];
    const contract = deriveAnswerContract('What is the capital of France?');
    expect(judgeAnswer(contract, 'Paris. [1]', ['artifact:1'], cited).reason).toBeNull();
    expect(judgeAnswer(contract, 'Lyon is a city. [1]', ['artifact:1'], cited).reason).toBe('focus_not_covered');
  });
});
