/** How one run's outcome is scored against its question, and the per-kind summary the goals read. */
import { answerGroups, isAnswerable, QUESTION_KINDS, type Question, type QuestionKind } from './questionSet.js';

export const VERDICTS = ['correct', 'partial', 'declined', 'declined_correctly', 'authorized_but_wrong'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What a client sees at the end of the loop, reduced to what the score needs. */
export interface RunOutcome {
  /** Completed with terminal authority `authorized`. */
  readonly authorized: boolean;
  /** The authorized answer's text (null when none). */
  readonly answer: string | null;
  readonly contradictions: number;
  /** The run's last `recommended_next_action`. */
  readonly recommendedNextAction: string;
  readonly stepsUsed: number;
  /** The last terminal-authority evaluation: its refusal reason and the answer contract's least part coverage. */
  readonly authority: AuthorityTrace | null;
}

export interface AuthorityTrace {
  readonly reason: string | null;
  /** The least focus coverage over the contract's parts; null when the candidate never reached the contract. */
  readonly coverage: number | null;
  /** The run's answer contract and the judgment's parts, printed for the questions `--ids` names. */
  readonly detail: { readonly contract: unknown; readonly parts: unknown };
}

const normalize = (text: string): string => text.replace(/\s+/g, ' ');

/** A procedure's steps appear in the answer in the order given (each at its first match). */
const inOrder = (groups: readonly RegExp[][], text: string): boolean => {
  const positions = groups.map((group) => Math.min(...group.map((pattern) => text.search(pattern))));
  return positions.every((position, i) => i === 0 || position > (positions[i - 1] ?? -1));
};

/**
 * Answerable: an authorized answer stating every group (each part of a two-part question, each
 * item of a list, in order for a procedure, each pattern otherwise) is correct, some of them partial, none
 * authorized-but-wrong; no authorized answer is a decline (a miss). Unanswerable: declining is
 * correct. Contradiction: correct only when declined with the conflict reported; authorizing
 * either side is authorized-but-wrong.
 */
export const scoreOutcome = (question: Question, outcome: RunOutcome): Verdict => {
  if (isAnswerable(question.kind)) {
    if (!outcome.authorized || outcome.answer === null) return 'declined';
    const text = normalize(outcome.answer);
    const groups = answerGroups(question);
    const met = groups.filter((group) => group.every((pattern) => pattern.test(text))).length;
    if (met === groups.length && (question.ordered !== true || inOrder(groups, text))) return 'correct';
    return groups.some((group) => group.some((pattern) => pattern.test(text))) ? 'partial' : 'authorized_but_wrong';
  }
  if (outcome.authorized) return 'authorized_but_wrong';
  if (question.kind === 'contradiction') return outcome.contradictions > 0 ? 'declined_correctly' : 'declined';
  return 'declined_correctly';
};

/** The verdict that counts as right for a kind. */
export const rightVerdict = (kind: QuestionKind): Verdict => (isAnswerable(kind) ? 'correct' : 'declined_correctly');

export interface KindSummary {
  readonly kind: QuestionKind;
  readonly questions: number;
  readonly counts: Readonly<Record<Verdict, number>>;
  /** Share of the kind's questions with its right verdict. */
  readonly rightShare: number;
}

export interface Scored {
  readonly question: Question;
  readonly outcome: RunOutcome;
  readonly verdict: Verdict;
}

const zeroCounts = (): Record<Verdict, number> =>
  Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;

export const summarize = (scored: readonly Scored[]): KindSummary[] =>
  QUESTION_KINDS.map((kind) => {
    const ofKind = scored.filter((s) => s.question.kind === kind);
    const counts = zeroCounts();
    for (const s of ofKind) counts[s.verdict] += 1;
    return {
      kind,
      questions: ofKind.length,
      counts,
      rightShare: ofKind.length === 0 ? 0 : counts[rightVerdict(kind)] / ofKind.length,
    };
  });

/** Declines (of any kind) whose run still told the client to continue: the loop guidance the issue asks to fix. */
export const continueAfterDecline = (scored: readonly Scored[]): number =>
  scored.filter((s) => !s.outcome.authorized && s.outcome.recommendedNextAction === 'continue').length;
