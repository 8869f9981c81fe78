import { sha256Hex } from '../../domain/hashing.js';
import type { Answer, PendingQuestion } from '../../domain/run.js';
import { emptyOutcome, type TerminalCandidate, type TurnArtifact, type TurnOutcome } from '../../domain/turn.js';
import type { CapabilityHit } from '../../sources/capability.js';
import type { TurnExecutor, TurnInput } from '../executor.js';
import type { AnswerContract } from '../../domain/answerContract/contract.js';
import { judgeAnswer } from '../../domain/answerContract/judge.js';
import { composeAnswer, renderAnswer, type ComposedAnswer } from './compose.js';
import { composeByContract } from './contractAnswer.js';
import { detectContradictions, type DetectedContradiction } from './contradictions.js';
import { focusedConflicts, isEntryFor, selectFocused } from './focusedAnswer.js';
import { questionFocus, type QuestionFocus } from './questionFocus.js';
import { rankHits, selectSupport, type RankedHit } from './relevance.js';

export const EXTRACTIVE_WRITER = 'helix.extractive';
const HITS_PER_CALL = 8;
const MAX_REENTERED = 8;
const ENTRIES_PER_IDENTIFIER = 2;

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

/** Whether the answer meets the contract as terminal authority will judge it (the same judge, the same passages). */
const meetsContract = (contract: AnswerContract, answer: ComposedAnswer): boolean =>
  judgeAnswer(
    contract,
    answer.text,
    answer.cited.map((h) => h.ref),
    answer.cited.map((h) => ({ ref: h.ref, title: h.title, excerpt: h.text })),
  ).reason === null;

/**
 * The relevance-first answer when it meets the contract; else the answer composed to the contract
 * from the same evidence; else the relevance-first answer still, for terminal authority to refuse
 * with its typed reason (the run then says why nothing was authorized).
 */
const contractedAnswer = (
  contract: AnswerContract,
  first: ComposedAnswer | undefined,
  relevant: readonly RankedHit[],
): ComposedAnswer | undefined => {
  if (first !== undefined && first.cited.length > 0 && meetsContract(contract, first)) return first;
  const composed = composeByContract(contract, relevant);
  return composed !== undefined && meetsContract(contract, composed) ? composed : first;
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

interface Gathered {
  readonly artifacts: ReadonlyMap<string, TurnArtifact>;
  readonly lists: readonly { readonly capabilityId: string; readonly hits: readonly CapabilityHit[] }[];
  /** `source_unavailable:<capability>` for each search that failed. */
  readonly unavailable: readonly string[];
}

/** Every planned query against every admitted search capability; a failing source is noted, not fatal. */
const gather = async (input: TurnInput, focus: QuestionFocus): Promise<Gathered> => {
  const searchers = input.capabilities.menu.filter((c) => c.kind === 'search');
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
  return { artifacts, lists, unavailable };
};

interface Rulings {
  /** Contradictions still standing: unruled, or ruled "none". */
  readonly open: readonly DetectedContradiction[];
  /** One question per unruled contradiction. */
  readonly questions: readonly PendingQuestion[];
  /** The refs of the sides the user rejected. */
  readonly rejected: ReadonlySet<string>;
}

const applyRulings = (answers: readonly Answer[], contradictions: readonly DetectedContradiction[]): Rulings => {
  const open: DetectedContradiction[] = [];
  const questions: PendingQuestion[] = [];
  const rejected = new Set<string>();
  for (const contradiction of contradictions) {
    const ruling = rulingFor(answers, contradiction);
    if (ruling === undefined) {
      open.push(contradiction);
      questions.push(conflictQuestion(contradiction));
    } else if (ruling === 'none') {
      open.push(contradiction);
    } else {
      rejected.add(contradiction.sides[ruling === 1 ? 1 : 0].ref);
    }
  }
  return { open, questions, rejected };
};

/** The terminal candidate for a composed answer: its text, the quoted passages, and where each is from. */
const candidateFor = (answer: ComposedAnswer, artifacts: ReadonlyMap<string, TurnArtifact>): TerminalCandidate => ({
  ref: `candidate:sha256:${sha256Hex(answer.text).slice(0, 40)}`,
  writer: EXTRACTIVE_WRITER,
  text: answer.text,
  textSha256: sha256Hex(answer.text),
  supportingRefs: answer.cited.map((h) => h.ref),
  quotesOnly: true,
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
});

/**
 * The offline default executor: deterministic, no model. It searches every admitted search
 * capability with the objective (and instruction, and each identifier the objective names), fuses
 * and gates the results by how much of the question they cover, detects the contradictions it can,
 * asks the user to rule on them, and writes an extractive terminal candidate citing exactly the
 * passages it quotes, or declines with answer_not_found when the evidence does not state the answer.
 */
export class ExtractiveExecutor implements TurnExecutor {
  readonly provider = 'helix.extractive';

  async executeTurn(input: TurnInput): Promise<TurnOutcome> {
    if (!input.capabilities.menu.some((c) => c.kind === 'search'))
      return emptyOutcome({ unresolvedRequirements: ['no_admitted_capabilities'] });
    const focus = questionFocus(input.objective);
    const { artifacts, lists, unavailable } = await gather(input, focus);

    // Relevance is judged against the objective alone: an instruction widens the search, but a
    // passage must still answer the question the run was started for.
    const question = input.objective;
    const isEntry = (hit: CapabilityHit): boolean =>
      focus.identifiers.some((identifier) => isEntryFor(hit, identifier));
    const ranked = rankHits(lists, question, isEntry);
    // Each named identifier keeps its best entries, however the other names' passages rank.
    const entries = focus.identifiers.flatMap((identifier) =>
      ranked.filter((hit) => isEntryFor(hit, identifier)).slice(0, ENTRIES_PER_IDENTIFIER),
    );
    const relevant = [...new Set([...entries, ...ranked])].slice(0, Math.max(MAX_REENTERED, entries.length));
    if (relevant.length === 0)
      return emptyOutcome({ unresolvedRequirements: ['no_relevant_evidence', ...unavailable] });
    const reentered = relevant.map((h) => artifacts.get(h.ref)).filter((a): a is TurnArtifact => a !== undefined);
    const families = [...new Set(reentered.map((a) => a.family))];
    const support = selectSupport(relevant);
    const rulings = applyRulings(
      input.answers,
      focus.identifiers.length > 0 ? focusedConflicts(question, focus, relevant) : detectContradictions(support),
    );
    const contradictions = rulings.open.map(({ contradiction_id, description, refs }) => ({
      contradiction_id,
      description,
      refs,
    }));
    const admitted = { artifacts: reentered, satisfiedFamilies: families, contradictions };
    // Asking the user comes first: no answer is proposed while a ruling is pending.
    if (rulings.questions.length > 0)
      return emptyOutcome({ ...admitted, questions: rulings.questions, unresolvedRequirements: unavailable });

    const kept = (hits: readonly RankedHit[]) => hits.filter((h) => !rulings.rejected.has(h.ref));
    const answer = contractedAnswer(
      input.answerContract,
      answerFor(question, focus, kept(relevant), kept(support)),
      kept(relevant),
    );
    // The evidence names no entry for what was asked, or never states the asked attribute of it:
    // nothing is proposed, and the client is told the answer is not in the sources.
    if (answer === undefined)
      return emptyOutcome({ ...admitted, unresolvedRequirements: ['answer_not_found', ...unavailable] });
    if (answer.cited.length === 0)
      return emptyOutcome({
        ...admitted,
        contradictions: [],
        unresolvedRequirements: ['no_quotable_evidence', ...unavailable],
      });
    return emptyOutcome({
      ...admitted,
      unresolvedRequirements: unavailable,
      supportedClaims: answer.claims.map((c) => ({ claim: c.claim, refs: c.refs })),
      terminalCandidates: [candidateFor(answer, artifacts)],
    });
  }
}
