import { isTerminalLifecycle, LIFECYCLE_STATUSES, type LifecycleStatus } from '../../src/domain/statuses.js';
import { describeFailure, type ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { check, type Check } from '../deploymentProbe/report.js';
import { field, statusThen, type Answer } from '../deploymentProbe/restCall.js';
import type { CleanupStatus } from './report.js';
import { mayHaveLostResponse } from './lostResponse.js';
import { RUNS_PATH } from './plan.js';
import { send, type Resources, type RestRequest } from './resources.js';
import { idOf, unbindProblems } from './roomReceipts.js';
import { unbindRequest } from './runBindingChecks.js';

/**
 * HAR-12 cleanup: withdraw the binding left active, then cancel the run, each retried once. A
 * mutation whose outcome is unknown is first replayed exactly to recover its opaque identifier.
 * Anything short of a confirmed withdrawal and cancellation is a release failure.
 */
const IDS = { unbind: 'cleanup.unbind_run', cancel: 'cleanup.cancel_run' } as const;

/** Worth one more attempt: the request may not have been applied, or its answer did not arrive. */
const retryable = (a: Answer): boolean => a.status >= 500 || field(a.body, 'code') === 'idempotency_in_progress';

/** The request, and once more when its response was lost or the server asked for a retry. */
const withOneRetry = async (attempt: () => Promise<Answer>): Promise<{ answer: Answer; retried: string[] }> => {
  try {
    const answer = await attempt();
    if (!retryable(answer)) return { answer, retried: [] };
    return { answer: await attempt(), retried: [`retried once after HTTP ${answer.status}`] };
  } catch (err) {
    if (!mayHaveLostResponse(err)) throw err;
    return { answer: await attempt(), retried: [`retried once after ${describeFailure(err)}`] };
  }
};

/**
 * First recovers what an unanswered request may have created (its replay failing is a failure of
 * this step), then answers the identifier to undo, or why there is nothing to undo.
 */
const recoverFirst = async (
  id: string,
  unknown: string,
  recover: () => Promise<string[]>,
  identifier: () => string | undefined,
): Promise<{ target: string; notes: string[] } | { done: Check | undefined }> => {
  let notes: string[];
  try {
    notes = await recover();
  } catch (err) {
    return { done: check(id, 'failed', `${unknown} and its replay failed: ${describeFailure(err)}`) };
  }
  const target = identifier();
  if (target !== undefined) return { target, notes };
  return { done: notes.length === 0 ? undefined : check(id, 'passed', notes.join('; ')) };
};

/** The undoing request, retried once; passed only when `judge` finds nothing wrong. */
const undo = async (
  id: string,
  notes: readonly string[],
  attempt: () => Promise<Answer>,
  judge: (a: Answer) => string[],
  passed: string,
): Promise<Check> => {
  try {
    const { answer, retried } = await withOneRetry(attempt);
    const problems = judge(answer);
    return problems.length === 0
      ? check(id, 'passed', [...notes, ...retried, passed].join('; '))
      : check(id, 'failed', [...notes, ...retried, ...problems].join('; '));
  } catch (err) {
    return check(id, 'failed', [...notes, describeFailure(err)].join('; '));
  }
};

/** A bind sent but never answered: the exact replay answers the binding if there is one. */
const recoverBinding = async (ctx: ProbeContext, token: string, resources: Resources): Promise<string[]> => {
  const pending = resources.pendingBind;
  if (resources.activeBindingRef !== undefined || pending === undefined) return [];
  const answer = await send(ctx, token, pending);
  resources.pendingBind = undefined;
  const ref = idOf(answer.body, 'binding_ref');
  if (answer.status >= 300 || ref === undefined)
    return [`the replayed bind answered HTTP ${answer.status}: nothing bound`];
  resources.activeBindingRef = ref;
  return [`binding ${ref} recovered by replaying the exact bind`];
};

const cleanupBinding = async (ctx: ProbeContext, token: string, resources: Resources): Promise<Check | undefined> => {
  const found = await recoverFirst(
    IDS.unbind,
    "a bind's outcome is unknown",
    () => recoverBinding(ctx, token, resources),
    () => resources.activeBindingRef,
  );
  if ('done' in found) return found.done;
  const ref = found.target;
  const withdrawn = await undo(
    IDS.unbind,
    found.notes,
    () => send(ctx, token, unbindRequest(ref)),
    (a) => statusThen(a, 200, () => unbindProblems(a.body, ref, ['revoked', 'already_revoked'])),
    `binding ${ref} withdrawn`,
  );
  if (withdrawn.status === 'passed') resources.activeBindingRef = undefined;
  return withdrawn;
};

/** A start sent but never answered: its exact key replays the stored run, if one was created. */
const recoverRun = async (ctx: ProbeContext, token: string, resources: Resources): Promise<string[]> => {
  const start = resources.runStart;
  if (resources.runId !== undefined || start === undefined) return [];
  const answer = await send(ctx, token, start);
  const runId = answer.status === 201 ? idOf(answer.body, 'run_id') : undefined;
  if (runId === undefined) return [`the replayed start answered HTTP ${answer.status}: no run`];
  resources.runId = runId;
  return [`run ${runId} recovered by replaying the exact start key`];
};

const lifecycleOf = (body: unknown): LifecycleStatus | undefined => {
  const value = field(body, 'lifecycle_status');
  return LIFECYCLE_STATUSES.find((s) => s === value);
};

/** The run's version for expected_version, or the start's version 1 when it cannot be read. */
const currentRun = async (ctx: ProbeContext, token: string, path: string) => {
  try {
    const answer = await send(ctx, token, { method: 'GET', path });
    const version = field(answer.body, 'version');
    if (answer.status === 200 && typeof version === 'number') return { version, lifecycle: lifecycleOf(answer.body) };
  } catch {
    // The cancel below reports the failure that matters.
  }
  return { version: 1, lifecycle: undefined };
};

const cleanupRun = async (ctx: ProbeContext, token: string, resources: Resources): Promise<Check | undefined> => {
  const found = await recoverFirst(
    IDS.cancel,
    "the start's outcome is unknown",
    () => recoverRun(ctx, token, resources),
    () => resources.runId,
  );
  if ('done' in found) return found.done;
  const runId = found.target;
  const path = `${RUNS_PATH}/${encodeURIComponent(runId)}`;
  const run = await currentRun(ctx, token, path);
  if (run.lifecycle !== undefined && isTerminalLifecycle(run.lifecycle))
    return check(IDS.cancel, 'passed', [...found.notes, `run ${runId} is already ${run.lifecycle}`].join('; '));
  const cancel: RestRequest = {
    method: 'POST',
    path: `${path}/cancel`,
    payload: {
      key: `${String(resources.runStart?.payload?.key)}-cancel`,
      body: { expected_version: run.version, reason: 'shared live room acceptance cleanup' },
    },
  };
  return undo(
    IDS.cancel,
    found.notes,
    () => send(ctx, token, cancel),
    (a) => statusThen(a, 200, () => (lifecycleOf(a.body) === 'cancelled' ? [] : ['the run is not cancelled'])),
    `run ${runId} cancelled`,
  );
};

const skippedCheck = (id: string, why: string): Check => check(id, 'skipped', why);

export const cleanup = async (
  ctx: ProbeContext,
  token: string,
  resources: Resources,
): Promise<{ checks: Check[]; status: CleanupStatus; detail: string }> => {
  const unbind = await cleanupBinding(ctx, token, resources);
  const cancel = await cleanupRun(ctx, token, resources);
  const checks = [
    unbind ?? skippedCheck(IDS.unbind, 'no binding was left active'),
    cancel ?? skippedCheck(IDS.cancel, 'no run was started'),
  ];
  if (unbind === undefined && cancel === undefined) return { checks, status: 'not_needed', detail: 'nothing to undo' };
  const failed = checks.filter((c) => c.status === 'failed').map((c) => c.id);
  return failed.length === 0
    ? { checks, status: 'completed', detail: 'nothing the harness created is left active but the retained room' }
    : { checks, status: 'failed', detail: `release failure: ${failed.join(', ')} did not complete` };
};
