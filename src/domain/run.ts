import type { AnswerContract } from './answerContract/contract.js';
import type { Budget, CompletionContract } from './contract.js';
import type { CompletionStatus, LifecycleStatus, NextAction, TerminalAuthorityStatus } from './statuses.js';
import type { TurnFailureDetail } from './turnFailures.js';
import { isTerminalLifecycle } from './statuses.js';

export const RUN_ID_PATTERN = /^run_[A-Za-z0-9._:-]{8,200}$/;

/** ATP-26, ATP-28: a question takes an answer value; a confirmation takes `{ is_confirmed, feedback }`. */
export const QUESTION_KINDS = ['question', 'confirmation'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export interface PendingQuestion {
  readonly question_id: string;
  readonly prompt: string;
  /** A JSON-Schema-like hint for the expected answer value; advisory only. */
  readonly answer_hint?: string;
  /** Absent means `question`. */
  readonly kind?: QuestionKind;
  /** ATP-27: whether the person may skip it (answered as `{ is_skipped: true }`). */
  readonly skippable?: boolean;
}

export interface Answer {
  readonly question_id: string;
  readonly value: unknown;
}

export interface Claim {
  readonly claim: string;
  readonly refs: readonly string[];
}

export interface Contradiction {
  readonly contradiction_id: string;
  readonly description: string;
  readonly refs: readonly string[];
}

export interface LatestResult {
  readonly turn: number;
  readonly outcome: 'succeeded' | 'failed' | 'timed_out' | 'aborted';
  /** The verified terminal product; null unless terminal authority was authorized. */
  readonly text: string | null;
  readonly supporting_evidence_refs: readonly string[];
  readonly output_fields: Readonly<Record<string, unknown>>;
  readonly terminal_candidate_ref: string | null;
  /** The executor that wrote the terminal candidate (`helix.extractive`, `helix.model`, ...); null without one. */
  readonly writer: string | null;
  /**
   * Why the latest candidate was not authorized (`focus_not_covered`, `ungrounded_values`, …;
   * src/domain/terminalAuthority.ts); null when it was, or when there was none.
   */
  readonly authority_reason: string | null;
  readonly failure_code: string | null;
  /** What the model provider stated about the failure (type, code, sanitized message); null otherwise. */
  readonly failure_detail: TurnFailureDetail | null;
}

/** The turn currently claimed on a run; null when no turn is executing. */
export interface ActiveTurn {
  readonly turnId: string;
  readonly workerId: string;
  readonly leaseExpiresAt: number;
  readonly startedAt: number;
}

/** The durable run record. Wire-contract objects keep their snake_case shape. */
export interface RunRecord {
  readonly runId: string;
  readonly ownerHash: string;
  readonly tenantRef: string;
  readonly accountRef: string;
  readonly objective: string;
  readonly objectiveHash: string;
  readonly runtimeProvider: string;
  readonly lifecycle: LifecycleStatus;
  readonly completion: CompletionStatus;
  readonly terminalAuthority: TerminalAuthorityStatus;
  readonly version: number;
  readonly contract: CompletionContract;
  /** What an answer to the objective must be (src/domain/answerContract/): derived at start, judged every turn. */
  readonly answerContract: AnswerContract;
  readonly constraints: readonly string[];
  readonly databaseScope: readonly string[];
  readonly budget: Budget;
  readonly stepsUsed: number;
  readonly expiresAt: number;
  readonly unresolvedRequirements: readonly string[];
  readonly contradictions: readonly Contradiction[];
  readonly pendingQuestions: readonly PendingQuestion[];
  readonly answers: readonly Answer[];
  /**
   * The run's evidence refs, oldest first: with terminal grounding required the latest authorized
   * answer's cited evidence, otherwise every admitted evidence ref over all turns (see judgeTurn).
   */
  readonly evidenceRefs: readonly string[];
  /** Claims the latest turn supported with projected refs (with grounding required, refs the authorized answer cites). */
  readonly supportedClaims: readonly Claim[];
  readonly latestResult: LatestResult | null;
  readonly lastEventSeq: number;
  readonly activeTurn: ActiveTurn | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly completedAt: number | null;
  readonly cancelledAt: number | null;
}

export const isRunTerminal = (run: RunRecord): boolean => isTerminalLifecycle(run.lifecycle);

export const stepsRemaining = (run: RunRecord): number => Math.max(0, run.budget.max_steps - run.stepsUsed);

export const isExpired = (run: RunRecord, now: number): boolean => now >= run.expiresAt;

/**
 * What the latest turn found the admitted sources cannot give: no capability to search, nothing on
 * topic, nothing quotable, or the topic without the asked answer. Another turn over the same
 * sources ends the same way, so the run recommends admitting more, not continuing.
 */
export const DEAD_END_REQUIREMENTS = [
  'no_admitted_capabilities',
  'no_relevant_evidence',
  'no_quotable_evidence',
  'answer_not_found',
] as const;

export const recommendNextAction = (run: RunRecord): NextAction => {
  if (run.lifecycle === 'running' || run.lifecycle === 'queued') return 'wait_for_turn';
  if (isRunTerminal(run)) return 'stop';
  if (run.pendingQuestions.length > 0) return 'answer_pending_questions';
  if (run.unresolvedRequirements.some((r) => (DEAD_END_REQUIREMENTS as readonly string[]).includes(r)))
    return 'broaden_scope';
  return 'continue';
};
