import { AGENT_TASK_PROVIDER, RUN_INTERRUPTED } from '../../domain/agentTask.js';
import { HelixError } from '../../domain/errors.js';
import type { NewRunEvent } from '../../domain/events.js';
import { isExpired, isRunTerminal, stepsRemaining, type LatestResult, type RunRecord } from '../../domain/run.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RunServiceDeps } from './deps.js';
import { commitRunChange, exhaustBudget } from './runChange.js';

/**
 * ATP-37: an agent task is not restored after a restart; its turn fails as RUN_INTERRUPTED, and no
 * other executor takes the turn over. A Helix-executed turn keeps the core's `turn_interrupted`.
 */
const interruptedFailure = (run: RunRecord): string =>
  run.runtimeProvider === AGENT_TASK_PROVIDER ? RUN_INTERRUPTED : 'turn_interrupted';

/** The interrupted agent task as the turn's typed result: failed, nothing proposed, nothing cited. */
const interruptedResult = (run: RunRecord): LatestResult => ({
  turn: run.stepsUsed,
  outcome: 'failed',
  text: null,
  supporting_evidence_refs: [],
  output_fields: {},
  terminal_candidate_ref: null,
  writer: null,
  authority_reason: null,
  failure_code: RUN_INTERRUPTED,
  failure_detail: null,
});

/** Whether a run needs a write before it can be served: an interrupted turn or a passed expiry. */
export const needsSettling = async (deps: RunServiceDeps, run: RunRecord): Promise<boolean> => {
  if (run.activeTurn !== null) return !(await deps.liveness.isTurnAlive(deps.store.read, run.runId, run.activeTurn));
  return !isRunTerminal(run) && isExpired(run, deps.clock.now());
};

/**
 * Brings a run to a state that can be served, inside the caller's transaction: a turn whose
 * process died (or whose lease ran out) is recovered to `waiting` with a `run.recovered` event and
 * its reservation becomes `outcome_unknown`; a spent budget or passed expiry ends the run.
 * Nothing acknowledged is touched: only the claim, which never acknowledged a result, is undone.
 */
export const settleRun = async (
  deps: RunServiceDeps,
  uow: UnitOfWork,
  run: RunRecord,
  attempt = 1,
): Promise<RunRecord> => {
  const now = deps.clock.now();
  // Under PostgreSQL's read committed, the row read may already be stale: a turn that looked
  // orphaned may have been finalized meanwhile. A lost compare-and-set means exactly that, so
  // settle the row as it is now instead of failing the request.
  const reread = async (): Promise<RunRecord> => {
    const fresh = await uow.runs.get(run.runId);
    if (fresh === undefined || attempt >= 3) throw new HelixError('store_unavailable', { retry_after_seconds: 1 });
    return settleRun(deps, uow, fresh, attempt + 1);
  };
  let current = run;
  if (current.activeTurn !== null && !(await deps.liveness.isTurnAlive(uow, current.runId, current.activeTurn))) {
    const turn = current.activeTurn;
    const events: NewRunEvent[] = [
      {
        kind: 'run.recovered',
        data: { turn: current.stepsUsed, reason: now >= turn.leaseExpiresAt ? 'lease_expired' : 'worker_gone' },
      },
    ];
    // The interrupted turn produced no verdict: the run is blocked (or still needs its answers).
    const completion = current.pendingQuestions.length > 0 ? 'needs_input' : 'blocked';
    let next: RunRecord = {
      ...current,
      version: current.version + 1,
      lifecycle: 'waiting',
      completion,
      activeTurn: null,
      ...(current.runtimeProvider === AGENT_TASK_PROVIDER ? { latestResult: interruptedResult(current) } : {}),
    };
    if (stepsRemaining(next) === 0 || isExpired(next, now)) {
      const exhausted = exhaustBudget(next, stepsRemaining(next) === 0 ? 'steps' : 'expired', now);
      next = { ...exhausted.next, version: next.version };
      events.push(...exhausted.events);
    } else if (completion === 'blocked') {
      events.push({
        kind: 'run.blocked',
        data: { turn: current.stepsUsed, failure_code: interruptedFailure(current), failure_detail: null },
      });
    } else {
      events.push({ kind: 'run.waiting', data: { completion_status: completion } });
    }
    const committed = await commitRunChange(uow, current, next, events, now);
    if (committed === undefined) return reread();
    for (const receipt of await uow.receipts.listProcessingForRun(current.runId)) {
      await uow.receipts.markOutcomeUnknown(receipt);
    }
    current = committed;
  }
  if (current.activeTurn === null && !isRunTerminal(current) && isExpired(current, now)) {
    const { next, events } = exhaustBudget(current, 'expired', now);
    const committed = await commitRunChange(uow, current, next, events, now);
    if (committed === undefined) return reread();
    current = committed;
  }
  return current;
};

/** Start-up recovery: settle every run whose claimed turn has no live process behind it. */
export const recoverInterruptedRuns = async (deps: RunServiceDeps): Promise<number> => {
  let recovered = 0;
  for (const candidate of await deps.store.read.runs.listWithActiveTurn()) {
    if (
      candidate.activeTurn === null ||
      (await deps.liveness.isTurnAlive(deps.store.read, candidate.runId, candidate.activeTurn))
    )
      continue;
    await deps.store.transaction(async (uow) => {
      const run = await uow.runs.get(candidate.runId);
      if (run !== undefined && run.version === candidate.version) {
        await settleRun(deps, uow, run);
        recovered++;
      }
    });
  }
  return recovered;
};
