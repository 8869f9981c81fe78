import { type RunRecord, recommendNextAction } from '../domain/run.js';

export const RUN_LIST_SCHEMA = 'helix.agent_run.list.v1';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** One run in a list: enough to choose it (the full snapshot is GET /api/v1/agent-runs/{run_id}). */
export const projectRunSummary = (run: RunRecord) => ({
  run_id: run.runId,
  objective: run.objective,
  lifecycle_status: run.lifecycle,
  completion_status: run.completion,
  terminal_authority_status: run.terminalAuthority,
  version: run.version,
  steps_used: run.stepsUsed,
  max_steps: run.budget.max_steps,
  pending_question_count: run.pendingQuestions.length,
  recommended_next_action: recommendNextAction(run),
  created_at: iso(run.createdAt),
  updated_at: iso(run.updatedAt),
});
export type RunSummaryView = ReturnType<typeof projectRunSummary>;

/** `helix.agent_run.list.v1`: a page of runs, newest first; `next_cursor` is null on the last page. */
export const projectRunList = (runs: readonly RunRecord[], nextCursor: string | null) => ({
  schema: RUN_LIST_SCHEMA,
  runs: runs.map(projectRunSummary),
  next_cursor: nextCursor,
});
export type RunListView = ReturnType<typeof projectRunList>;
