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
