/**
 * The answer contract: what an answer to the run's objective must be, derived once when the run
 * starts and stored with it. Terminal authority judges every writer's candidate against it
 * (judge.ts), so "authorized" means the answer answers the question, not only that it cites.
 */
import { expectedTypes, type AnswerType } from './answerTypes.js';
import { focusTermsOf, NO_RARITY, type FocusTerm, type TermRarity } from './focusTerms.js';
import { questionParts } from './questionParts.js';

export const ANSWER_CONTRACT_VERSION = 1;

/**
 * The least rarity-weighted share of a part's focus an answer must cover. Chosen on the
 * development halves of the evaluation corpora and reported on the held-out halves (docs/quality.md,
 * docs/solver.md "The answer contract").
 */
export const DEFAULT_MIN_FOCUS_COVERAGE = 0.88;

export interface ContractPart {
  readonly text: string;
  /** Any one of these answers the part. */
  readonly expected_types: readonly AnswerType[];
  readonly focus_terms: readonly FocusTerm[];
}

export interface AnswerContract {
  readonly version: typeof ANSWER_CONTRACT_VERSION;
  readonly parts: readonly ContractPart[];
  readonly min_focus_coverage: number;
  /** `corpus` when the focus weights are the admitted corpus's rarities, `uniform` when no source gave any. */
  readonly weighting: 'corpus' | 'uniform';
}

/**
 * A part that asks the same of several names ("the defaults of gc.reflogExpire and
 * gc.pruneExpire", "what do --follow of git log and --depth of git clone do") asks it of each:
 * one part per name. The part is cut at each "and" between two names; a name's part keeps the
 * words of its own stretch and of the frame before the first name ("what are the defaults of"),
 * not the other names' words. The plural came from the names, so each asks for one value where
 * the whole asked for a list.
 */
const perIdentifier = (text: string, rarity: TermRarity): ContractPart[] => {
  const whole: ContractPart = { text, expected_types: expectedTypes(text), focus_terms: focusTermsOf(text, rarity) };
  const names = whole.focus_terms.filter((t) => t.kind === 'identifier').map((t) => t.term);
  if (names.length < 2) return [whole];
  const positions = names.map((name) => text.indexOf(name));
  const cuts = positions.slice(1).map((at, i) => {
    const between = text.slice(0, at).lastIndexOf(' and ');
    return between > (positions[i] ?? 0) ? between : at;
  });
  const frame = text.slice(0, positions[0]);
  const single = [...new Set(whole.expected_types.map((type): AnswerType => (type === 'list' ? 'name' : type)))];
  return names.map((name, i) => {
    const stretch = text.slice(i === 0 ? 0 : (cuts[i - 1] ?? 0), cuts[i] ?? text.length);
    const own = focusTermsOf(i === 0 ? stretch : `${frame} ${stretch}`, rarity).filter(
      (t) => t.kind !== 'identifier' || t.term === name,
    );
    return { text: stretch.replace(/^\s*and\s+/, '').trim(), expected_types: single, focus_terms: own };
  });
};

export const deriveAnswerContract = (
  objective: string,
  rarity: TermRarity = NO_RARITY,
  minFocusCoverage: number = DEFAULT_MIN_FOCUS_COVERAGE,
): AnswerContract => ({
  version: ANSWER_CONTRACT_VERSION,
  parts: questionParts(objective).flatMap((text) => perIdentifier(text, rarity)),
  min_focus_coverage: minFocusCoverage,
  weighting: rarity.units > 0 ? 'corpus' : 'uniform',
});
