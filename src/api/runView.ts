import type { RunEvent } from '../domain/events.js';
import { recommendNextAction, stepsRemaining, type RunRecord } from '../domain/run.js';
import { NON_AUTHORITY_FLAGS } from './flags.js';

export const RUN_SCHEMA = 'helix.agent_run.v1';
export const EVENT_SCHEMA = 'helix.agent_run.event.v1';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** How many cumulative evidence refs a run projection lists; the evidence bundle has them all. */
const EVIDENCE_REFS_IN_RUN = 50;

/** The public `helix.agent_run.v1` projection. Owner identity appears only as opaque hashes. */
export const projectRun = (run: RunRecord) => ({
  schema: RUN_SCHEMA,
  run_id: run.runId,
  ownership: {
    owner_ref: `owner:sha256:${run.ownerHash.slice(0, 32)}`,
    tenant_ref: run.tenantRef,
    account_ref: run.accountRef,
  },
  objective: run.objective,
  objective_hash: run.objectiveHash,
  runtime_provider: run.runtimeProvider,
  lifecycle_status: run.lifecycle,
  completion_status: run.completion,
  terminal_authority_status: run.terminalAuthority,
  version: run.version,
  completion_contract: run.contract,
  answer_contract: run.answerContract,
  constraints: run.constraints,
  database_scope: run.databaseScope,
  budget: {
    max_steps: run.budget.max_steps,
    expires_in_seconds: run.budget.expires_in_seconds,
    steps_used: run.stepsUsed,
    steps_remaining: stepsRemaining(run),
    expires_at: iso(run.expiresAt),
  },
  summary: {
    turns_completed: run.latestResult?.turn ?? 0,
    evidence_ref_count: run.evidenceRefs.length,
    unresolved_requirement_count: run.unresolvedRequirements.length,
    contradiction_count: run.contradictions.length,
    pending_question_count: run.pendingQuestions.length,
    turn_in_progress: run.activeTurn !== null,
  },
  unresolved_requirements: run.unresolvedRequirements,
  contradictions: run.contradictions,
  pending_questions: run.pendingQuestions,
  evidence: {
    count: run.evidenceRefs.length,
    refs: run.evidenceRefs.slice(-EVIDENCE_REFS_IN_RUN),
    truncated: run.evidenceRefs.length > EVIDENCE_REFS_IN_RUN,
  },
  latest_result: run.latestResult,
  recommended_next_action: recommendNextAction(run),
  created_at: iso(run.createdAt),
  updated_at: iso(run.updatedAt),
  completed_at: iso(run.completedAt),
  cancelled_at: iso(run.cancelledAt),
  ...NON_AUTHORITY_FLAGS,
});
export type RunView = ReturnType<typeof projectRun>;

export const projectEvent = (event: RunEvent) => ({
  schema: EVENT_SCHEMA,
  run_id: event.runId,
  seq: event.seq,
  kind: event.kind,
  run_version: event.version,
  data: event.data,
  created_at: iso(event.createdAt),
  ...NON_AUTHORITY_FLAGS,
});
export type EventView = ReturnType<typeof projectEvent>;
