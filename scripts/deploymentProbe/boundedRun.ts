import { ERROR_SCHEMA } from '../../src/api/errorBody.js';
import { RUN_SCHEMA } from '../../src/api/runView.js';

/**
 * The only run a deployment probe may create: one step and a 60-second expiry (docs/spec/shared-live-room-requirements.md PCP-07,
 * production checklist step 10). The probes start it, never continue it, and cancel it.
 */
export const BOUNDED_BUDGET = { max_steps: 1, expires_in_seconds: 60 } as const;

export const boundedStartRequest = (objective: string) => ({ objective, budget: { ...BOUNDED_BUDGET } });

/** Longest excerpt of a remote message a check detail carries. */
const MAX_EXCERPT = 200;

export const excerpt = (text: string): string => (text.length > MAX_EXCERPT ? `${text.slice(0, MAX_EXCERPT)}…` : text);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The room facade's error schema (docs/spec/shared-live-room-requirements.md §4, [ref] of §22). */
export const ROOM_ERROR_SCHEMA = 'helix.shared_live_room.error.v1';
const ERROR_SCHEMAS: readonly unknown[] = [ERROR_SCHEMA, ROOM_ERROR_SCHEMA];

/** `code (message)` of a Helix error body (core or room facade), or undefined for anything else. */
export const helixErrorOf = (value: unknown): string | undefined => {
  if (!isObject(value) || !ERROR_SCHEMAS.includes(value.schema)) return undefined;
  return `${String(value.code)} (${excerpt(String(value.message))})`;
};

export type StartedRunCheck = { readonly runId: string } | { readonly problem: string };

/**
 * Whether an answer to a start is the run the probe asked for: a `helix.agent_run.v1` at version 1,
 * waiting, with exactly the bounded budget and an expiry 60 s after its creation.
 */
export const checkStartedRun = (value: unknown): StartedRunCheck => {
  const refused = helixErrorOf(value);
  if (refused !== undefined) return { problem: `Helix refused the start: ${refused}` };
  if (!isObject(value)) return { problem: 'the answer is not a JSON object' };
  if (value.schema !== RUN_SCHEMA)
    return { problem: `the answer is not a ${RUN_SCHEMA} run (schema ${excerpt(String(value.schema))})` };
  if (typeof value.run_id !== 'string') return { problem: 'the run has no run_id' };
  const budget = isObject(value.budget) ? value.budget : {};
  const problems: string[] = [];
  if (value.version !== 1) problems.push(`version is ${String(value.version)}, expected 1`);
  if (value.lifecycle_status !== 'waiting')
    problems.push(`lifecycle_status is ${String(value.lifecycle_status)}, expected waiting`);
  if (budget.max_steps !== BOUNDED_BUDGET.max_steps)
    problems.push(`budget.max_steps is ${String(budget.max_steps)}, expected ${BOUNDED_BUDGET.max_steps}`);
  if (budget.expires_in_seconds !== BOUNDED_BUDGET.expires_in_seconds) {
    problems.push(
      `budget.expires_in_seconds is ${String(budget.expires_in_seconds)}, expected ${BOUNDED_BUDGET.expires_in_seconds}`,
    );
  }
  const lifetime = Date.parse(String(budget.expires_at)) - Date.parse(String(value.created_at));
  if (lifetime !== BOUNDED_BUDGET.expires_in_seconds * 1000) problems.push('expires_at is not created_at plus 60 s');
  return problems.length === 0 ? { runId: value.run_id } : { problem: `run ${value.run_id}: ${problems.join('; ')}` };
};
