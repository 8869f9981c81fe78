import type { NewRunEvent } from './events.js';
import type { LatestResult, PendingQuestion, RunRecord } from './run.js';
import type { CompletionStatus, LifecycleStatus, TerminalAuthorityStatus } from './statuses.js';
import { CONTRACT_REFUSALS, type ContractJudgment } from './answerContract/judge.js';
import { evaluateTerminalAuthority } from './terminalAuthority.js';
import { isPermanentTurnFailure } from './turnFailures.js';
import type { TerminalCandidate, TurnArtifact, TurnOutcome } from './turn.js';
import type { TurnFailureDetail } from './turnFailures.js';

export const REQUIRED_EVIDENCE_PREFIX = 'required_evidence:';

export interface TurnContext {
  readonly turn: number;
  /** Capability ids admitted for this turn by the run's logical data scopes. */
  readonly admittedCapabilities: ReadonlySet<string>;
  /** Evidence families the run's logical data scopes require. */
  readonly requiredFamilies: readonly string[];
  readonly now: number;
}

export interface TurnVerdict {
  readonly lifecycle: LifecycleStatus;
  readonly completion: CompletionStatus;
  readonly terminalAuthority: TerminalAuthorityStatus;
  /** Every artifact that passed re-entry: the bundle lists them all (as evidence or observation). */
  readonly admittedArtifacts: readonly TurnArtifact[];
  /** What this turn projects as grounded: all admitted, or when grounding is required only the cited ones. */
  readonly projectedArtifacts: readonly TurnArtifact[];
  /** The run's evidence refs after this turn, which the run snapshot and the bundle's `evidence_refs` show. */
  readonly evidenceRefs: readonly string[];
  readonly rejectedArtifactRefs: readonly string[];
  readonly unresolvedRequirements: readonly string[];
  readonly pendingQuestions: readonly PendingQuestion[];
  readonly latestResult: LatestResult;
  readonly events: readonly NewRunEvent[];
}

/**
 * Judge one finished turn against the stored completion contract: re-entry audit, the
 * scope-required evidence hard gate, terminal authority, then the completion verdict.
 * Pure: the same run, outcome and context always give the same verdict.
 */
export const judgeTurn = (run: RunRecord, outcome: TurnOutcome, ctx: TurnContext): TurnVerdict => {
  const reentry = auditReentry(outcome, ctx);
  const authority = evaluateTerminalAuthority(
    outcome.terminalCandidates,
    reentry.admitted,
    requiredEvidenceGate(outcome, ctx, reentry.admitted).missingFamilies,
    run.objective,
    run.answerContract,
  );
  const gate = requiredEvidenceGate(outcome, ctx, reentry.admitted, answerMissing(authority.reason));
  const authorized = authority.status === 'authorized' ? authority.candidate : null;
  const projected = projectGrounded(run, reentry.admitted, authorized);
  const answered = new Set(run.answers.map((a) => a.question_id));
  const pendingQuestions = outcome.questions.filter((q) => !answered.has(q.question_id));
  const failureCode = outcome.status === 'failed' ? (outcome.failureCode ?? 'turn_failed') : null;
  const failureDetail = outcome.status === 'failed' ? (outcome.failureDetail ?? null) : null;
  const completion = completionOf(run, outcome, ctx, { gate, authorized, projected, pendingQuestions, failureCode });
  const terminalAuthority: TerminalAuthorityStatus =
    authority.status === 'not_evaluated' && !run.contract.require_terminal_authority
      ? 'not_required'
      : authority.status;
  const latestResult: LatestResult = {
    turn: ctx.turn,
    outcome: resultOutcome(outcome),
    text: authorized ? authorized.text : null,
    supporting_evidence_refs: authorized ? [...authorized.supportingRefs] : [],
    output_fields: authorized ? { ...authorized.outputFields } : {},
    terminal_candidate_ref: authority.candidate?.ref ?? null,
    writer: authority.candidate?.writer ?? null,
    authority_reason: authority.status === 'not_authorized' ? authority.reason : null,
    failure_code: failureCode,
    failure_detail: failureDetail,
  };
  return {
    lifecycle: lifecycleOf(completion),
    completion,
    terminalAuthority,
    admittedArtifacts: reentry.admitted,
    projectedArtifacts: projected,
    evidenceRefs: evidenceRefsAfter(run, projected),
    rejectedArtifactRefs: reentry.rejectedRefs,
    unresolvedRequirements: gate.unresolvedRequirements,
    pendingQuestions,
    latestResult,
    events: verdictEvents(run, ctx, {
      reentry,
      gate,
      pendingQuestions,
      terminalAuthority,
      reason: authority.reason,
      judgment: authority.status === 'not_evaluated' ? undefined : authority.judgment,
      completion,
      failure: { code: failureCode, detail: failureDetail },
    }),
  };
};

/**
 * docs/spec/helix-agent-api-v1.md (Evidence and terminal authority): when terminal grounding is
 * required, projected evidence is intersected with the canonical authority's supporting refs, so a
 * turn nothing was authorized in projects nothing. Without that requirement every admitted artifact is.
 * (Authority already refused a candidate citing anything this turn did not admit.)
 */
const projectGrounded = (
  run: RunRecord,
  admitted: readonly TurnArtifact[],
  authorized: TerminalCandidate | null,
): readonly TurnArtifact[] => {
  if (!run.contract.require_terminal_authority) return admitted;
  if (authorized === null) return [];
  // In citation order, so evidence_refs[0] is the answer's source [1].
  const byRef = new Map(admitted.map((a) => [a.ref, a]));
  return [...new Set(authorized.supportingRefs)].flatMap((ref) => byRef.get(ref) ?? []);
};

/**
 * The run's evidence: the `evidence` artifacts projected (those `min_evidence_refs` counts). With
 * grounding required they are the current authority's citations, replaced every turn (an earlier
 * answer's citations ground nothing now); otherwise they accumulate over the turns.
 */
const evidenceRefsAfter = (run: RunRecord, projected: readonly TurnArtifact[]): readonly string[] => {
  const evidence = projected.filter((a) => a.kind === 'evidence').map((a) => a.ref);
  return run.contract.require_terminal_authority ? evidence : [...new Set([...run.evidenceRefs, ...evidence])];
};

interface Reentry {
  readonly admitted: readonly TurnArtifact[];
  readonly rejectedRefs: readonly string[];
}

/**
 * A candidate the answer contract refused says the evidence this turn read does not state the
 * answer: the turn records `answer_not_found`, so the run recommends broadening its sources
 * rather than another turn over the same ones.
 */
const answerMissing = (reason: string | null): readonly string[] =>
  (CONTRACT_REFUSALS as readonly (string | null)[]).includes(reason) ? [ANSWER_NOT_FOUND] : [];

const ANSWER_NOT_FOUND = 'answer_not_found';

/** Phase 1, re-entry: only a successful turn's artifacts from admitted capabilities, each once. */
const auditReentry = (outcome: TurnOutcome, ctx: TurnContext): Reentry => {
  const seen = new Set<string>();
  const admitted: TurnArtifact[] = [];
  const rejectedRefs: string[] = [];
  for (const artifact of outcome.artifacts) {
    if (
      outcome.status !== 'succeeded' ||
      !ctx.admittedCapabilities.has(artifact.capabilityId) ||
      seen.has(artifact.ref)
    ) {
      rejectedRefs.push(artifact.ref);
      continue;
    }
    seen.add(artifact.ref);
    admitted.push(artifact);
  }
  return { admitted, rejectedRefs };
};

interface Gate {
  readonly missingFamilies: readonly string[];
  readonly unresolvedRequirements: readonly string[];
}

/**
 * Phase 2, the hard gate, rebuilt from the scopes on every turn: neither a generic resolution nor
 * an earlier turn's artifacts can clear a required family.
 */
const requiredEvidenceGate = (
  outcome: TurnOutcome,
  ctx: TurnContext,
  admitted: readonly TurnArtifact[],
  refused: readonly string[] = [],
): Gate => {
  const satisfied = new Set(outcome.satisfiedFamilies);
  const missingFamilies = ctx.requiredFamilies.filter(
    (family) => !satisfied.has(family) || !admitted.some((a) => a.family === family),
  );
  const generic = [...outcome.unresolvedRequirements, ...refused].filter(
    (r) => !r.startsWith(REQUIRED_EVIDENCE_PREFIX),
  );
  return {
    missingFamilies,
    unresolvedRequirements: [
      ...new Set([...generic, ...missingFamilies.map((f) => `${REQUIRED_EVIDENCE_PREFIX}${f}`)]),
    ],
  };
};

interface Findings {
  readonly gate: Gate;
  readonly authorized: TerminalCandidate | null;
  readonly projected: readonly TurnArtifact[];
  readonly pendingQuestions: readonly PendingQuestion[];
  readonly failureCode: string | null;
}

/** Phase 4, the completion verdict: is the contract met, and if not, what should the client do? */
const completionOf = (run: RunRecord, outcome: TurnOutcome, ctx: TurnContext, f: Findings): CompletionStatus => {
  const conflicts = outcome.contradictions.length > 0 && !run.contract.allow_conflicts;
  const outputFields = f.authorized
    ? outputFieldsOf(f.authorized.text, f.authorized.supportingRefs, f.authorized.outputFields)
    : {};
  const complete =
    outcome.status === 'succeeded' &&
    (!run.contract.require_terminal_authority || f.authorized !== null) &&
    f.projected.filter((a) => a.kind === 'evidence').length >= run.contract.min_evidence_refs &&
    run.contract.required_output_fields.every((field) => field in outputFields) &&
    f.gate.missingFamilies.length === 0 &&
    f.gate.unresolvedRequirements.length <= run.contract.max_unresolved_requirements &&
    !conflicts &&
    f.pendingQuestions.length === 0;
  const outOfBudget = run.budget.max_steps - run.stepsUsed <= 0 || ctx.now >= run.expiresAt;
  if (complete) return 'completed';
  if (isPermanentTurnFailure(f.failureCode)) return 'failed';
  if (outOfBudget) return 'budget_exhausted';
  if (outcome.status === 'failed') return 'blocked';
  if (f.pendingQuestions.length > 0) return 'needs_input';
  if (conflicts) return 'conflict_detected';
  return 'needs_more_evidence';
};

const lifecycleOf = (completion: CompletionStatus): LifecycleStatus => {
  if (completion === 'completed') return 'completed';
  return completion === 'budget_exhausted' || completion === 'failed' ? 'failed' : 'waiting';
};

/** Phase 5, the events the verdict commits with, in order; the last one closes the turn. */
const verdictEvents = (
  run: RunRecord,
  ctx: TurnContext,
  v: {
    readonly reentry: Reentry;
    readonly gate: Gate;
    readonly pendingQuestions: readonly PendingQuestion[];
    readonly terminalAuthority: TerminalAuthorityStatus;
    readonly reason: string | null;
    readonly judgment: ContractJudgment | undefined;
    readonly completion: CompletionStatus;
    readonly failure: ClosingFailure;
  },
): NewRunEvent[] => {
  const nowUnresolved = new Set(v.gate.unresolvedRequirements);
  const resolved = run.unresolvedRequirements.filter((r) => !nowUnresolved.has(r));
  const events: NewRunEvent[] = [
    {
      kind: 'run.evidence_reentered',
      data: {
        turn: ctx.turn,
        admitted_refs: v.reentry.admitted.map((a) => a.ref),
        rejected_refs: v.reentry.rejectedRefs,
      },
    },
    ...[...new Set(resolved)].map(
      (requirement): NewRunEvent => ({ kind: 'run.issue_resolved', data: { turn: ctx.turn, requirement } }),
    ),
  ];
  if (v.pendingQuestions.length > 0) {
    events.push({
      kind: 'run.input_requested',
      data: { turn: ctx.turn, question_ids: v.pendingQuestions.map((q) => q.question_id) },
    });
  }
  events.push({
    kind: 'run.terminal_authority_evaluated',
    data: {
      turn: ctx.turn,
      status: v.terminalAuthority,
      reason: v.reason,
      ...(v.judgment === undefined ? {} : { answer_contract: v.judgment }),
    },
  });
  events.push(closingEvent(v.completion, ctx.turn, v.failure));
  return events;
};

const resultOutcome = (outcome: TurnOutcome): LatestResult['outcome'] => {
  if (outcome.status === 'succeeded') return 'succeeded';
  if (outcome.failureCode === 'turn_timeout') return 'timed_out';
  if (outcome.failureCode === 'turn_aborted') return 'aborted';
  return 'failed';
};

const outputFieldsOf = (
  text: string,
  supportingRefs: readonly string[],
  fields: Readonly<Record<string, unknown>>,
): Record<string, unknown> => ({ ...fields, text, supporting_evidence_refs: supportingRefs });

/** Why the turn failed, as the closing `run.blocked` / `run.failed` event and `latest_result` both say it. */
interface ClosingFailure {
  readonly code: string | null;
  readonly detail: TurnFailureDetail | null;
}

const closingEvent = (completion: CompletionStatus, turn: number, failure: ClosingFailure): NewRunEvent => {
  switch (completion) {
    case 'completed':
      return { kind: 'run.completed', data: { turn } };
    case 'budget_exhausted':
      return { kind: 'run.budget_exhausted', data: { turn } };
    case 'blocked':
      return { kind: 'run.blocked', data: { turn, failure_code: failure.code, failure_detail: failure.detail } };
    case 'failed':
      return { kind: 'run.failed', data: { turn, failure_code: failure.code, failure_detail: failure.detail } };
    default:
      return { kind: 'run.waiting', data: { turn, completion_status: completion } };
  }
};
