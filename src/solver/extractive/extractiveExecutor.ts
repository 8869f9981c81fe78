import { sha256Hex } from '../../domain/hashing.js';
import type { Answer, PendingQuestion } from '../../domain/run.js';
import { emptyOutcome, type TurnArtifact, type TurnOutcome } from '../../domain/turn.js';
import type { CapabilityHit } from '../../sources/capability.js';
import type { TurnExecutor, TurnInput } from '../executor.js';
import { composeAnswer, renderAnswer, type ComposedAnswer } from './compose.js';
import { detectContradictions, type DetectedContradiction } from './contradictions.js';
import { focusedConflicts, isEntryFor, selectFocused } from './focusedAnswer.js';
import { questionFocus, type QuestionFocus } from './questionFocus.js';
import { rankHits, selectSupport, type RankedHit } from './relevance.js';

export const EXTRACTIVE_WRITER = 'helix.extractive';
const HITS_PER_CALL = 8;
const MAX_REENTERED = 8;

/**
 * Queries for this turn: the objective, the instruction when it adds content of its own, and each
 * identifier the objective names on its own, so the entry about it is found however the rest reads.
 */
const planQueries = (input: TurnInput, focus: QuestionFocus): string[] => {
  const queries = [input.objective];
  if (input.instruction !== null && input.instruction.trim() !== '') queries.push(input.instruction);
  if (focus.identifiers.length > 1 || (focus.identifiers.length === 1 && focus.identifiers[0] !== input.objective))
    queries.push(...focus.identifiers);
  return queries;
};

/** The answer for the question: by its identifiers when it names any, else the covering sentences; undefined when the evidence lacks it. */
const answerFor = (
  question: string,
  focus: QuestionFocus,
  relevant: readonly RankedHit[],
  support: readonly RankedHit[],
): ComposedAnswer | undefined => {
  if (focus.identifiers.length === 0) return composeAnswer(question, focus, support);
  const selection = selectFocused(question, focus, relevant);
  return selection.kind === 'answer' ? renderAnswer(selection.sentences) : undefined;
};

export const conflictQuestionId = (contradictionId: string): string => `resolve_${contradictionId}`;

/** The user's ruling on a contradiction: rely on side 1, side 2, or neither. */
const rulingFor = (answers: readonly Answer[], contradiction: DetectedContradiction): 1 | 2 | 'none' | undefined => {
  const answer = answers.find((a) => a.question_id === conflictQuestionId(contradiction.contradiction_id));
  if (answer === undefined) return undefined;
  const value =
    typeof answer.value === 'object' && answer.value !== null && 'source' in answer.value
      ? (answer.value as { source: unknown }).source
      : answer.value;
  const text = String(value).trim().toLowerCase();
  if (text === '1' || text === contradiction.sides[0].ref) return 1;
  if (text === '2' || text === contradiction.sides[1].ref) return 2;
  return 'none';
};

const conflictQuestion = (c: DetectedContradiction): PendingQuestion => ({
  question_id: conflictQuestionId(c.contradiction_id),
  prompt: `The sources disagree. [1] "${c.sentences[0]}" (${c.sides[0].title}) — [2] "${c.sentences[1]}" (${c.sides[1].title}). Which should the answer rely on?`,
  answer_hint: '"1", "2" or "none"',
});

/**
 * The offline default executor: deterministic, no model. It searches every admitted search
 * capability with the objective (and instruction), fuses and gates the results by how much of the
 * question they cover, detects the contradictions it can, asks the user to rule on them, and writes
 * an extractive terminal candidate citing exactly the passages it quotes.
 */
export class ExtractiveExecutor implements TurnExecutor {
  readonly provider = 'helix.extractive';

  async executeTurn(input: TurnInput): Promise<TurnOutcome> {
    const searchers = input.capabilities.menu.filter((c) => c.kind === 'search');
    if (searchers.length === 0) return emptyOutcome({ unresolvedRequirements: ['no_admitted_capabilities'] });

    const focus = questionFocus(input.objective);
    const artifacts = new Map<string, TurnArtifact>();
    const lists: { capabilityId: string; hits: readonly CapabilityHit[] }[] = [];
    const unavailable: string[] = [];
    for (const query of planQueries(input, focus)) {
      for (const capability of searchers) {
        input.signal.throwIfAborted();
        try {
          const result = await input.capabilities.invoke(capability.id, { query, limit: HITS_PER_CALL });
          for (const artifact of result.artifacts) artifacts.set(artifact.ref, artifact);
          lists.push({ capabilityId: capability.id, hits: result.hits });
        } catch (err) {
          if (input.signal.aborted) throw err;
          unavailable.push(`source_unavailable:${capability.id}`);
        }
      }
    }

    // Relevance is judged against the objective alone: an instruction widens the search, but a
    // passage must still answer the question the run was started for.
    const question = input.objective;
    const isEntry = (hit: CapabilityHit): boolean =>
      focus.identifiers.some((identifier) => isEntryFor(hit, identifier));
    const relevant = rankHits(lists, question, isEntry).slice(0, MAX_REENTERED);
    const reentered = relevant.map((h) => artifacts.get(h.ref)).filter((a): a is TurnArtifact => a !== undefined);
    if (relevant.length === 0) {
      return emptyOutcome({ unresolvedRequirements: ['no_relevant_evidence', ...unavailable] });
    }

    let support = selectSupport(relevant);
    let pool = relevant;
    const contradictions =
      focus.identifiers.length > 0 ? focusedConflicts(question, focus, relevant) : detectContradictions(support);
    const open: DetectedContradiction[] = [];
    const questions: PendingQuestion[] = [];
    for (const contradiction of contradictions) {
      const ruling = rulingFor(input.answers, contradiction);
      if (ruling === undefined) {
        open.push(contradiction);
        questions.push(conflictQuestion(contradiction));
      } else if (ruling === 'none') {
        open.push(contradiction);
      } else {
        const rejected = contradiction.sides[ruling === 1 ? 1 : 0].ref;
        support = support.filter((h) => h.ref !== rejected);
        pool = pool.filter((h) => h.ref !== rejected);
      }
    }
    const publicContradictions = open.map(({ contradiction_id, description, refs }) => ({
      contradiction_id,
      description,
      refs,
    }));
    const families = [...new Set(reentered.map((a) => a.family))];
    // Asking the user comes first: no answer is proposed while a ruling is pending.
    if (questions.length > 0) {
      return emptyOutcome({
        artifacts: reentered,
        satisfiedFamilies: families,
        contradictions: publicContradictions,
        questions,
        unresolvedRequirements: unavailable,
      });
    }

    const answer = answerFor(question, focus, pool, support);
    // The evidence names no entry for what was asked, or never states the asked attribute of it:
    // nothing is proposed, and the client is told the answer is not in the sources.
    if (answer === undefined)
      return emptyOutcome({
        artifacts: reentered,
        satisfiedFamilies: families,
        contradictions: publicContradictions,
        unresolvedRequirements: ['answer_not_found', ...unavailable],
      });
    if (answer.cited.length === 0)
      return emptyOutcome({
        artifacts: reentered,
        satisfiedFamilies: families,
        unresolvedRequirements: ['no_quotable_evidence', ...unavailable],
      });
    const supportingRefs = answer.cited.map((h) => h.ref);
    return emptyOutcome({
      artifacts: reentered,
      satisfiedFamilies: families,
      contradictions: publicContradictions,
      unresolvedRequirements: unavailable,
      supportedClaims: answer.claims.map((c) => ({ claim: c.claim, refs: c.refs })),
      terminalCandidates: [
        {
          ref: `candidate:sha256:${sha256Hex(answer.text).slice(0, 40)}`,
          writer: EXTRACTIVE_WRITER,
          text: answer.text,
          textSha256: sha256Hex(answer.text),
          supportingRefs,
          outputFields: {
            sources: answer.cited.map((h, i) => {
              const artifact = artifacts.get(h.ref);
              return {
                n: i + 1,
                ref: h.ref,
                title: h.title,
                locator: artifact?.provenance.locator ?? null,
                span: artifact?.provenance.span ?? null,
              };
            }),
          },
        },
      ],
    });
  }
}
