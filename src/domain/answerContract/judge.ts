/**
 * Judges a candidate answer against the run's answer contract: every part answered, each part's
 * answer carrying a value of an expected type, and the part's focus covered. What an answer says
 * for a part is the claims (sentences, list lines) whose context — the claim, the titles of the
 * passages it cites and the sentence of theirs it restates — touches the part's focus; an answer that quotes a lead-in for a list, another
 * setting's default, or one half of a two-part question is refused with the typed reason.
 */
import { sentencesOf } from '../objectiveRelevance.js';
import { escapeRegExp } from '../regExp.js';
import { stemSet } from '../terms.js';
import { carriesAnyType } from './typedValues.js';
import type { AnswerType } from './answerTypes.js';
import type { AnswerContract, ContractPart } from './contract.js';
import { coversTerm, focusCoverage, missesOneCommonWord } from './focusTerms.js';

export const CONTRACT_REFUSALS = ['part_unanswered', 'focus_not_covered', 'answer_type_missing'] as const;
export type ContractRefusal = (typeof CONTRACT_REFUSALS)[number];

export interface CitedPassage {
  readonly ref: string;
  readonly title: string;
  readonly excerpt: string;
}

export interface PartJudgment {
  readonly part: number;
  /** How many of the answer's statements touch this part's focus at all. */
  readonly claims: number;
  /** The best focus coverage, 0..1, of a statement that answers the part (of any touching it when none does). */
  readonly coverage: number;
  /** Whether some statement is on the part's focus and covers enough of it. */
  readonly on_focus: boolean;
  /** Whether such a statement also carries a value of an expected type. */
  readonly typed: boolean;
}

export interface ContractJudgment {
  readonly reason: ContractRefusal | null;
  readonly parts: readonly PartJudgment[];
}

interface AnswerClaim extends Statement {
  /** The refs the claim cites, as one key: consecutive claims with the same key quote one passage. */
  readonly citing: string;
  /** The claim, the titles of what it cites and the cited sentence it restates: what the claim is said about. */
  readonly context: string;
}

/**
 * The sentence of the cited passages a claim restates: the one sharing the most of the claim's
 * terms, when it shares at least half of them ("Paris." restates "Paris is the capital of
 * France."). A written answer is judged with what it says it drew on, and no more of the passage.
 */
const restatedSentence = (claim: string, passages: readonly CitedPassage[]): string => {
  const said = stemSet(claim);
  if (said.size === 0) return '';
  let best = '';
  let bestShared = 0;
  for (const sentence of passages.flatMap((p) => sentencesOf(p.excerpt))) {
    const stems = stemSet(sentence);
    const shared = [...said].filter((s) => stems.has(s)).length;
    if (shared > bestShared) [best, bestShared] = [sentence, shared];
  }
  return bestShared * 2 >= said.size ? best : '';
};

const CITATION = /\[(\d+)\]/g;
/** A claim ends after a citation marker, a sentence end, or a line. */
const CLAIM_BREAK = /(?<=\[\d+\])\s+|(?<=[.!?])\s+(?=[A-Z(`'"‘“$-])|\n+/u;

/** The answer's claims; the numbered source list after "Sources:" is layout, not a claim. */
const claimsOf = (text: string, cited: readonly CitedPassage[], supportingRefs: readonly string[]): AnswerClaim[] => {
  const body = text.split(/\n\s*Sources:\s*\n/)[0] ?? text;
  const byRef = new Map(cited.map((c) => [c.ref, c]));
  return body
    .split(CLAIM_BREAK)
    .filter((claim) => /[\p{L}\p{N}]/u.test(claim))
    .map((claim) => {
      const numbers = [...claim.matchAll(CITATION)].map((m) => Number(m[1]));
      const refs = numbers.flatMap((n) => supportingRefs[n - 1] ?? []);
      const inline = supportingRefs.filter((ref) => claim.includes(ref));
      const named = [...refs, ...inline].flatMap((ref) => byRef.get(ref) ?? []);
      const sources = named.length > 0 ? named : cited;
      const said = claim.replace(CITATION, ' ');
      const titles = sources.map((c) => c.title).join('\n');
      const restated = `${said}\n${restatedSentence(said, sources)}`;
      return {
        text: said,
        said: restated,
        citing: sources.map((c) => c.ref).join(' '),
        context: `${restated}\n${titles}`,
      };
    });
};

/** The text without the values the question itself names: repeating "SESSION_COOKIE_NAME" answers nothing. */
const withoutAskedValues = (text: string, part: ContractPart): string =>
  part.focus_terms
    .filter((t) => t.kind !== 'word')
    .reduce((rest, t) => rest.replace(new RegExp(escapeRegExp(t.term), 'gi'), ' '), text);

/** Types a paragraph answers (how, why, what is, the items of a list); a value is stated in one sentence. */
const SAID_AT_LENGTH: ReadonlySet<AnswerType> = new Set(['list', 'procedure', 'explanation', 'definition', 'reason']);

/** The part accepts an answer that takes several sentences of one passage. */
export const takesParagraph = (part: ContractPart): boolean =>
  part.expected_types.some((type) => SAID_AT_LENGTH.has(type));

/**
 * What can answer a part on its own: each claim, and for an answer said at length (a list, a
 * procedure, an explanation) each run of consecutive claims quoting the same passages (a lead-in
 * and its items, a paragraph). A value — a number, a name, a version — must be stated in one claim;
 * the claim before it, quoting the same passage, may say what it is the value of (`withSubjects`).
 */
const statementsOf = (claims: readonly AnswerClaim[], part: ContractPart): AnswerClaim[] => {
  if (!takesParagraph(part)) return [...claims, ...withSubjects(claims)];
  const runs: AnswerClaim[] = [];
  for (const claim of claims) {
    const last = runs.at(-1);
    if (last !== undefined && last.citing === claim.citing)
      runs[runs.length - 1] = read(last, claim, `${last.text}\n${claim.text}`);
    else runs.push(claim);
  }
  return [...claims, ...runs];
};

/** Two consecutive claims of one passage read as one statement whose own words are `text`. */
const read = (first: AnswerClaim, second: AnswerClaim, text: string): AnswerClaim => ({
  text,
  said: `${first.said}\n${second.said}`,
  citing: second.citing,
  context: `${first.context}\n${second.context}`,
});

/**
 * Each claim that follows another quoting the same passage, read with it as its subject: in "The
 * number of parallel workers. The default is one." the value is the second sentence and what it is
 * the value of, the first. The value must still be in the later claim itself.
 */
const withSubjects = (claims: readonly AnswerClaim[]): AnswerClaim[] =>
  claims.flatMap((claim, i) => {
    const subject = claims[i - 1];
    return subject === undefined || subject.citing !== claim.citing ? [] : [read(subject, claim, claim.text)];
  });

/** What a statement says (`text`), with the cited sentence it restates (`said`) and the titles it is said under (`context`). */
export interface Statement {
  readonly text: string;
  readonly said: string;
  readonly context: string;
}

/** How one statement fits a part. */
export interface StatementFit {
  /** It touches the part's focus at all. */
  readonly touches: boolean;
  /** Rarity-weighted share of the focus its context covers. */
  readonly coverage: number;
  /** Its context misses only one focus word, not the rarest (see missesOneCommonWord). */
  readonly nearlyCovers: boolean;
  /**
   * It is about what was asked: it (or its title) names every identifier and number of the part,
   * and it says at least one of the part's focus words itself — a title naming the setting does
   * not make any sentence under it an answer about the setting's default.
   */
  readonly onFocus: boolean;
  readonly typed: boolean;
}

export const fitOf = (part: ContractPart, statement: Statement): StatementFit => {
  const stems = stemSet(statement.context);
  const saidStems = stemSet(statement.said);
  const words = part.focus_terms.filter((t) => t.kind === 'word');
  const named = part.focus_terms.filter((t) => t.kind !== 'word').every((t) => coversTerm(statement.context, stems, t));
  return {
    touches: part.focus_terms.length === 0 || part.focus_terms.some((t) => coversTerm(statement.context, stems, t)),
    coverage: focusCoverage(statement.context, part.focus_terms),
    nearlyCovers: missesOneCommonWord(statement.context, part.focus_terms),
    onFocus: named && (words.length === 0 || words.some((t) => coversTerm(statement.said, saidStems, t))),
    typed: carriesAnyType(withoutAskedValues(statement.text, part), part.expected_types),
  };
};

/** The statement covers enough of the part's focus: `least` of its weight, or all but one common word. */
const coversEnough = (fit: StatementFit, least: number): boolean => fit.coverage >= least || fit.nearlyCovers;

/**
 * A part is answered by one statement that is on its focus, covers enough of it and carries a
 * value of an expected type: a number said about another setting, beside a sentence naming this
 * one, is not an answer about this one.
 */
const judgePart = (part: ContractPart, index: number, claims: readonly AnswerClaim[], least: number): PartJudgment => {
  const fits = statementsOf(claims, part).map((statement) => fitOf(part, statement));
  const touching = fits.filter((f) => f.touches);
  const focused = touching.filter((f) => f.onFocus && coversEnough(f, least));
  const answering = focused.filter((f) => f.typed);
  const best = (group: readonly StatementFit[]): number => Math.max(0, ...group.map((f) => f.coverage));
  return {
    part: index,
    claims: touching.length,
    coverage: best(answering.length > 0 ? answering : touching),
    on_focus: focused.length > 0,
    typed: answering.length > 0,
  };
};

/**
 * The first refusal that applies, in the order a reader would see it: some part answered and
 * another not (part_unanswered), nothing on focus, nothing of the asked type.
 */
const refusalOf = (parts: readonly PartJudgment[]): ContractRefusal | null => {
  const answered = parts.filter((p) => p.on_focus);
  if (answered.length > 0 && answered.length < parts.length) return 'part_unanswered';
  if (answered.length === 0) return 'focus_not_covered';
  if (parts.some((p) => !p.typed)) return 'answer_type_missing';
  return null;
};

/**
 * The contract's judgment of one candidate. `cited` are the passages the candidate cites, in its
 * `supportingRefs` order (citation [n] is supportingRefs[n-1]).
 */
export const judgeAnswer = (
  contract: AnswerContract,
  text: string,
  supportingRefs: readonly string[],
  cited: readonly CitedPassage[],
): ContractJudgment => {
  const claims = claimsOf(text, cited, supportingRefs);
  const parts = contract.parts.map((part, index) => judgePart(part, index, claims, contract.min_focus_coverage));
  return { reason: refusalOf(parts), parts };
};
