import type { AnswerContract } from './answerContract/contract.js';
import { judgeAnswer, type ContractJudgment, type ContractRefusal } from './answerContract/judge.js';
import { ungroundedValues } from './answerValues.js';
import { sha256Hex } from './hashing.js';
import { addressesObjective } from './objectiveRelevance.js';
import type { TerminalCandidate, TurnArtifact } from './turn.js';

export type AuthorityDecision =
  | { readonly status: 'not_evaluated'; readonly candidate: null; readonly reason: 'no_candidate' }
  | {
      readonly status: 'authorized';
      readonly candidate: TerminalCandidate;
      readonly reason: null;
      readonly judgment: ContractJudgment;
    }
  | {
      readonly status: 'not_authorized';
      readonly candidate: TerminalCandidate | null;
      readonly reason: AuthorityRefusal;
      /** The answer contract's judgment, when the candidate got as far as it. */
      readonly judgment?: ContractJudgment;
    };

export type AuthorityRefusal =
  | 'multiple_writers'
  | 'text_hash_mismatch'
  | 'empty_text'
  | 'no_supporting_refs'
  | 'support_not_current_turn'
  | 'ungrounded_values'
  | 'off_objective'
  | ContractRefusal
  | 'required_evidence_missing';

/**
 * The canonical terminal finalizer. It verifies and never repairs: a candidate is authorized only
 * when exactly one writer proposed it, its text hash matches, every supporting ref is an artifact
 * admitted in this very turn, every number, identifier and quoted string of a written (not quoted)
 * answer occurs in the passages it cites, the answer addresses the run's objective
 * (objectiveRelevance.ts), it meets the run's answer contract (answerContract/judge.ts: every part
 * answered, on focus, with a value of the asked type), and no scope-required evidence family is
 * still missing. The same checks hold for every writer: extractive, model and external agent.
 */
export const evaluateTerminalAuthority = (
  candidates: readonly TerminalCandidate[],
  currentTurnArtifacts: readonly TurnArtifact[],
  missingRequiredFamilies: readonly string[],
  objective: string,
  answerContract: AnswerContract,
): AuthorityDecision => {
  if (candidates.length === 0) return { status: 'not_evaluated', candidate: null, reason: 'no_candidate' };
  const writers = new Set(candidates.map((c) => c.writer));
  const [candidate] = candidates;
  if (candidates.length !== 1 || writers.size !== 1 || candidate === undefined) {
    return { status: 'not_authorized', candidate: null, reason: 'multiple_writers' };
  }
  const refuse = (reason: AuthorityRefusal): AuthorityDecision => ({ status: 'not_authorized', candidate, reason });
  if (candidate.text.trim().length === 0) return refuse('empty_text');
  if (sha256Hex(candidate.text) !== candidate.textSha256) return refuse('text_hash_mismatch');
  if (candidate.supportingRefs.length === 0) return refuse('no_supporting_refs');
  const current = new Set(currentTurnArtifacts.map((a) => a.ref));
  if (!candidate.supportingRefs.every((ref) => current.has(ref))) return refuse('support_not_current_turn');
  // What a writer read of each cited artifact is its title and excerpt; a value found in neither was not read.
  const cited = new Set(candidate.supportingRefs);
  const citedArtifacts = currentTurnArtifacts.filter((a) => cited.has(a.ref));
  const read = citedArtifacts.map((a) => `${a.title ?? ''}\n${a.excerpt}`);
  if (candidate.quotesOnly !== true && ungroundedValues(candidate.text, read).length > 0)
    return refuse('ungrounded_values');
  if (!addressesObjective(objective, candidate.text, read)) return refuse('off_objective');
  const byRef = new Map(citedArtifacts.map((a) => [a.ref, { ref: a.ref, title: a.title ?? '', excerpt: a.excerpt }]));
  const judgment = judgeAnswer(
    answerContract,
    candidate.text,
    candidate.supportingRefs,
    candidate.supportingRefs.flatMap((ref) => byRef.get(ref) ?? []),
  );
  if (judgment.reason !== null) return { status: 'not_authorized', candidate, reason: judgment.reason, judgment };
  if (missingRequiredFamilies.length > 0)
    return { status: 'not_authorized', candidate, reason: 'required_evidence_missing', judgment };
  return { status: 'authorized', candidate, reason: null, judgment };
};
