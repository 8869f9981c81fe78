import { ListEventsQuerySchema } from '../../api/schemas.js';
import { EVENT_SCHEMA, projectEvent } from '../../api/runView.js';
import { NON_AUTHORITY_FLAGS } from '../../api/flags.js';
import type { Principal } from '../../auth/principal.js';
import { loadOwnedRun, ownerOf, requireOperation, requireRunId } from './access.js';
import type { RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';
import { parseInput } from '../validate.js';
import { isRunTerminal, type RunRecord } from '../../domain/run.js';
import { watchRun } from './runNotifier.js';

/** GET /api/v1/agent-runs/{run_id}/events?after_seq&limit: one ordered page of the run's events. */
export const listEvents = async (deps: RunServiceDeps, principal: Principal, runId: string, query: unknown) => {
  requireOperation(principal, 'run.events');
  requireRunId(runId);
  const { after_seq: afterSeq, limit, wait_ms: waitMs } = parseInput(ListEventsQuerySchema, query);
  const run = await loadOwnedRun(deps, runId, ownerOf(deps, principal));
  // One extra row tells whether another page exists without a count query.
  const rows = await rowsWithin(deps, run, afterSeq, limit + 1, waitMs);
  const page = rows.slice(0, limit);
  const body = {
    schema: `${EVENT_SCHEMA}.page`,
    run_id: run.runId,
    events: page.map(projectEvent),
    next_after_seq: page.at(-1)?.seq ?? afterSeq,
    has_more: rows.length > limit,
    ...NON_AUTHORITY_FLAGS,
  };
  return { status: 200, body, replayed: false } satisfies ServiceResult;
};
export type EventPage = Awaited<ReturnType<typeof listEvents>>['body'];

/**
 * Long poll: wait for commit signals until an event after the cursor exists or the bound passes.
 * A signal is only a hint (it may be for an event already seen), so the store decides each time;
 * the watch opens before the first read, so an event committed during a read is not waited past.
 */
const rowsWithin = async (deps: RunServiceDeps, run: RunRecord, afterSeq: number, count: number, waitMs: number) => {
  const watch = watchRun(deps.notifier, run.runId);
  try {
    let rows = await deps.store.read.events.list(run.runId, afterSeq, count);
    const deadline = Date.now() + waitMs;
    while (rows.length === 0 && !isRunTerminal(run) && Date.now() < deadline) {
      await watch.next(deadline - Date.now());
      rows = await deps.store.read.events.list(run.runId, afterSeq, count);
    }
    return rows;
  } finally {
    watch.close();
  }
};
