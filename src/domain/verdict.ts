import type { NewRunEvent } from './events.js';
import type { LatestResult, PendingQuestion, RunRecord } from './run.js';
import type { CompletionStatus, LifecycleStatus, TerminalAuthorityStatus } from './statuses.js';
import { evaluateTerminalAuthority } from './terminalAuthority.js';
import { isPermanentTurnFailure } from './turnFailures.js';
import type { TurnArtifact, TurnOutcome } from './turn.js';

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
  readonly admittedArtifacts: readonly TurnArtifact[];
  /** What the run and evidence bundle show: the admitted artifacts, or only the cited ones when grounding is required. */
  readonly projectedArtifacts: readonly TurnArtifact[];
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
  const seen = new Set<string>();
  const admittedArtifacts: TurnArtifact[] = [];
  const rejectedArtifactRefs: string[] = [];
  for (const artifact of outcome.artifacts) {
    // Only a successful turn's re-entry audit can project evidence.
    if (outcome.status !== 'succeeded' || !ctx.admittedCapabilities.has(artifact.capabilityId) || seen.has(artifact.ref)) {
      rejectedArtifactRefs.push(artifact.ref);
      continue;
    }
    seen.add(artifact.ref);
    admittedArtifacts.push(artifact);
  }

  // The hard gate is rebuilt from the scopes on every turn: neither a generic resolution nor an
  // earlier turn's artifacts can clear a required family.
  const satisfied = new Set(outcome.satisfiedFamilies);
  const missingFamilies = ctx.requiredFamilies.filter(
    (family) => !satisfied.has(family) || !admittedArtifacts.some((a) => a.family === family),
  );
  const generic = outcome.unresolvedRequirements.filter((r) => !r.startsWith(REQUIRED_EVIDENCE_PREFIX));
  const unresolvedRequirements = [
    ...new Set([...generic, ...missingFamilies.map((f) => `${REQUIRED_EVIDENCE_PREFIX}${f}`)]),
  ];

  const authority = evaluateTerminalAuthority(outcome.terminalCandidates, admittedArtifacts, missingFamilies);
  const authorized = authority.status === 'authorized' ? authority.candidate : null;
  // With terminal grounding required, projected evidence is intersected with the authorized citations.
  const projected =
    authorized !== null && run.contract.require_terminal_authority
      ? admittedArtifacts.filter((a) => authorized.supportingRefs.includes(a.ref))
      : admittedArtifacts;
  const evidenceCount = projected.filter((a) => a.kind === 'evidence').length;

  const answered = new Set(run.answers.map((a) => a.question_id));
  const pendingQuestions = outcome.questions.filter((q) => !answered.has(q.question_id));
  const conflicts = outcome.contradictions.length > 0 && !run.contract.allow_conflicts;
  const outputFields = authorized ? outputFieldsOf(authorized.text, authorized.supportingRefs, authorized.outputFields) : {};
  const missingOutputs = run.contract.required_output_fields.filter((f) => !(f in outputFields));
  const authorityOk = !run.contract.require_terminal_authority || authorized !== null;

  const complete =
    outcome.status === 'succeeded' &&
    authorityOk &&
    evidenceCount >= run.contract.min_evidence_refs &&
    missingOutputs.length === 0 &&
    missingFamilies.length === 0 &&
    unresolvedRequirements.length <= run.contract.max_unresolved_requirements &&
    !conflicts &&
    pendingQuestions.length === 0;

  const stepsLeft = run.budget.max_steps - run.stepsUsed;
  const expired = ctx.now >= run.expiresAt;
  const failureCode = outcome.status === 'failed' ? (outcome.failureCode ?? 'turn_failed') : null;
  let completion: CompletionStatus;
  if (complete) completion = 'completed';
  else if (isPermanentTurnFailure(failureCode)) completion = 'failed';
  else if (outcome.status === 'failed') completion = 'blocked';
  else if (stepsLeft <= 0 || expired) completion = 'budget_exhausted';
  else if (pendingQuestions.length > 0) completion = 'needs_input';
  else if (conflicts) completion = 'conflict_detected';
  else completion = 'needs_more_evidence';
  if (completion === 'blocked' && (stepsLeft <= 0 || expired)) completion = 'budget_exhausted';

  const lifecycle: LifecycleStatus =
    completion === 'completed' ? 'completed' : completion === 'budget_exhausted' || completion === 'failed' ? 'failed' : 'waiting';
  const terminalAuthority: TerminalAuthorityStatus =
    authority.status === 'not_evaluated' && !run.contract.require_terminal_authority ? 'not_required' : authority.status;

  const latestResult: LatestResult = {
    turn: ctx.turn,
    outcome: resultOutcome(outcome),
    text: authorized ? authorized.text : null,
    supporting_evidence_refs: authorized ? [...authorized.supportingRefs] : [],
    output_fields: authorized ? { ...authorized.outputFields } : {},
    terminal_candidate_ref: authority.candidate?.ref ?? null,
    failure_code: failureCode,
  };

  const previouslyUnresolved = new Set(run.unresolvedRequirements);
  const nowUnresolved = new Set(unresolvedRequirements);
  const resolved = [...previouslyUnresolved].filter((r) => !nowUnresolved.has(r));

  const events: NewRunEvent[] = [
    {
      kind: 'run.evidence_reentered',
      data: {
        turn: ctx.turn,
        admitted_refs: admittedArtifacts.map((a) => a.ref),
        rejected_refs: rejectedArtifactRefs,
      },
    },
    ...resolved.map((requirement): NewRunEvent => ({ kind: 'run.issue_resolved', data: { turn: ctx.turn, requirement } })),
  ];
  if (pendingQuestions.length > 0) {
    events.push({
      kind: 'run.input_requested',
      data: { turn: ctx.turn, question_ids: pendingQuestions.map((q) => q.question_id) },
    });
  }
  events.push({
    kind: 'run.terminal_authority_evaluated',
    data: { turn: ctx.turn, status: terminalAuthority, reason: authority.reason },
  });
  events.push(closingEvent(completion, ctx.turn, latestResult.failure_code));

  return {
    lifecycle,
    completion,
    terminalAuthority,
    admittedArtifacts,
    projectedArtifacts: projected,
    rejectedArtifactRefs,
    unresolvedRequirements,
    pendingQuestions,
    latestResult,
    events,
  };
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

const closingEvent = (completion: CompletionStatus, turn: number, failureCode: string | null): NewRunEvent => {
  switch (completion) {
    case 'completed':
      return { kind: 'run.completed', data: { turn } };
    case 'budget_exhausted':
      return { kind: 'run.budget_exhausted', data: { turn } };
    case 'blocked':
      return { kind: 'run.blocked', data: { turn, failure_code: failureCode } };
    case 'failed':
      return { kind: 'run.failed', data: { turn, failure_code: failureCode } };
    default:
      return { kind: 'run.waiting', data: { turn, completion_status: completion } };
  }
};
