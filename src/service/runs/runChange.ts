import { HelixError } from '../../domain/errors.js';
import type { NewRunEvent } from '../../domain/events.js';
import type { RunRecord } from '../../domain/run.js';
import type { UnitOfWork } from '../../store/port.js';

/**
 * Writes a run transition and the events that describe it, in the caller's transaction. The
 * compare-and-set on `before.version` makes the transition lose cleanly to any concurrent one;
 * event seqs continue from the run's own counter, so they stay contiguous per run.
 */
export const commitRunChange = async (
  uow: UnitOfWork,
  before: RunRecord,
  next: RunRecord,
  events: readonly NewRunEvent[],
  now: number,
): Promise<RunRecord | undefined> => {
  const stamped: RunRecord = { ...next, lastEventSeq: before.lastEventSeq + events.length, updatedAt: now };
  if (!(await uow.runs.compareAndSet(stamped, before.version))) return undefined;
  await uow.events.append(stamped.runId, stamped.version, before.lastEventSeq + 1, events, now);
  return stamped;
};

/**
 * The run as the request that beat a compare-and-set left it. On PostgreSQL (READ COMMITTED) the
 * losing UPDATE waited for the winner, and this new statement sees what the winner committed, so
 * the refusal built from it reports the version a client must use next, not the one it already
 * lost with. SQLite serializes writers, so there a compare-and-set does not lose to a rival.
 */
export const runAfterLostRace = async (uow: UnitOfWork, runId: string): Promise<RunRecord> => {
  const current = await uow.runs.get(runId);
  if (current === undefined) throw new HelixError('not_found');
  return current;
};

/** The budget_exhausted transition, for a spent step budget or a passed expiry. */
export const exhaustBudget = (
  run: RunRecord,
  reason: 'steps' | 'expired',
  now: number,
): { next: RunRecord; events: NewRunEvent[] } => ({
  next: {
    ...run,
    version: run.version + 1,
    lifecycle: 'failed',
    completion: 'budget_exhausted',
    activeTurn: null,
    completedAt: now,
  },
  events: [{ kind: 'run.budget_exhausted', data: { reason, steps_used: run.stepsUsed } }],
});
