import { FLOOR_STEPS_PER_RUN, type FloorRun } from './floorRun.js';
import type { Owner, RenderRun } from './floorStore.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * The floor's response body: the field names and nesting of `helix.agent_run.v1`, so the floor
 * serializes, stores and sends as many bytes as Helix (about 1.5 KB), without Helix's projection code.
 */
export const floorRenderer =
  (owner: Owner): RenderRun =>
  (run: FloorRun) =>
    JSON.stringify({
      schema: 'helix.agent_run.v1',
      run_id: run.runId,
      ownership: { owner_ref: `owner:sha256:${owner.ownerHash.slice(0, 32)}`, tenant_ref: owner.tenantRef, account_ref: owner.accountRef },
      objective: run.objective,
      objective_hash: run.objectiveHash,
      runtime_provider: 'helix.no_evidence',
      lifecycle_status: run.lifecycle,
      completion_status: run.completion,
      terminal_authority_status: 'not_evaluated',
      version: run.version,
      completion_contract: { min_evidence_refs: 1, require_terminal_authority: true, required_output_fields: [], max_unresolved_requirements: 0, allow_conflicts: false },
      constraints: [],
      database_scope: [],
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
        unresolved_requirement_count: run.stepsUsed === 0 ? 0 : 1,
        contradiction_count: 0,
        pending_question_count: 0,
        turn_in_progress: run.turnId !== null,
      },
      unresolved_requirements: run.stepsUsed === 0 ? [] : ['no_evidence_found'],
      contradictions: [],
      pending_questions: [],
      evidence: { count: 0, refs: [], truncated: false },
      latest_result:
        run.stepsUsed === 0
          ? null
          : { turn: run.stepsUsed, outcome: 'succeeded', text: null, supporting_evidence_refs: [], output_fields: {}, terminal_candidate_ref: null, failure_code: null },
      recommended_next_action: run.completedAt === null ? 'continue' : 'none',
      created_at: iso(run.createdAt),
      updated_at: iso(run.updatedAt),
      completed_at: iso(run.completedAt),
      cancelled_at: null,
      answer_authority: false,
      assistant_answer: false,
      terminal_eligible: false,
      raw_content_included: false,
    });
