import { FLOOR_STEPS_PER_RUN, type FloorRun, type FloorState } from './floorRun.js';
import type { EventRow, Owner, RenderRun } from './floorStore.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const NON_AUTHORITY_FLAGS = {
  answer_authority: false,
  assistant_answer: false,
  terminal_eligible: false,
  raw_content_included: false,
};

/**
 * The floor's response body: the field names and nesting of `helix.agent_run.v1`, so the floor
 * serializes, stores and sends as many bytes as Helix (about 1.5 KB), without Helix's projection code.
 */
export const floorRenderer =
  (owner: Owner): RenderRun =>
  (run: FloorRun, state: FloorState) =>
    JSON.stringify({
      schema: 'helix.agent_run.v1',
      run_id: run.runId,
      ownership: {
        owner_ref: `owner:sha256:${owner.ownerHash.slice(0, 32)}`,
        tenant_ref: owner.tenantRef,
        account_ref: owner.accountRef,
      },
      objective: run.objective,
      objective_hash: run.objectiveHash,
      runtime_provider: 'helix.no_evidence',
      lifecycle_status: run.lifecycle,
      completion_status: run.completion,
      terminal_authority_status: 'not_evaluated',
      version: run.version,
      completion_contract: state.contract,
      constraints: state.constraints,
      database_scope: state.databaseScope,
      budget: {
        max_steps: FLOOR_STEPS_PER_RUN,
        expires_in_seconds: 3600,
        steps_used: run.stepsUsed,
        steps_remaining: FLOOR_STEPS_PER_RUN - run.stepsUsed,
        expires_at: iso(run.expiresAt),
      },
      summary: {
        turns_completed: run.stepsUsed,
        evidence_ref_count: 0,
        unresolved_requirement_count: state.unresolvedRequirements.length,
        contradiction_count: state.contradictions.length,
        pending_question_count: state.pendingQuestions.length,
        turn_in_progress: run.turnId !== null,
      },
      unresolved_requirements: state.unresolvedRequirements,
      contradictions: state.contradictions,
      pending_questions: state.pendingQuestions,
      evidence: { count: 0, refs: [], truncated: false },
      latest_result: state.latestResult,
      recommended_next_action: run.completedAt === null ? 'continue' : 'none',
      created_at: iso(run.createdAt),
      updated_at: iso(run.updatedAt),
      completed_at: iso(run.completedAt),
      cancelled_at: null,
      ...NON_AUTHORITY_FLAGS,
    });

/**
 * The floor's event page: the field names of `helix.agent_run.event.v1.page`. `rows` holds up to
 * `limit + 1` events; the extra one only says whether another page exists, as in Helix.
 */
export const renderEventPage = (runId: string, rows: readonly EventRow[], afterSeq: number, limit: number): string => {
  const page = rows.slice(0, limit);
  return JSON.stringify({
    schema: 'helix.agent_run.event.v1.page',
    run_id: runId,
    events: page.map((row) => ({
      schema: 'helix.agent_run.event.v1',
      run_id: row.run_id,
      seq: row.seq,
      kind: row.kind,
      run_version: row.version,
      data: JSON.parse(row.data) as unknown,
      created_at: iso(row.created_at),
      ...NON_AUTHORITY_FLAGS,
    })),
    next_after_seq: page.at(-1)?.seq ?? afterSeq,
    has_more: rows.length > limit,
    ...NON_AUTHORITY_FLAGS,
  });
};
