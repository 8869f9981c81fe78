import { CancelRunRequestSchema } from '../../api/schemas.js';
import { projectRun, type RunView } from '../../api/runView.js';
import type { Principal } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import { isRunTerminal, type RunRecord } from '../../domain/run.js';
import { loadOwnedRunIn } from './access.js';
import { acceptMutation } from './acceptMutation.js';
import type { RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';
import { completeReceipt, reserveKey } from '../idempotency.js';
import { answerReservation } from './reservationOutcome.js';
import { commitRunChange, runAfterLostRace } from './runChange.js';

/**
 * POST /api/v1/agent-runs/{run_id}/cancel: durably closes a nonterminal run (irreversible). It wins
 * over a turn in flight: the turn's later finalize fails its compare-and-set and is discarded. A
 * turn running in this process is also signalled through its AbortController.
 */
export const cancelRun = async (
  deps: RunServiceDeps,
  principal: Principal,
  runId: string,
  idempotencyKey: string | undefined,
  body: unknown,
): Promise<ServiceResult<RunView>> => {
  const { request, owner, idem } = acceptMutation(deps, principal, {
    operation: 'run.cancel',
    runId,
    idempotencyKey,
    body,
    schema: CancelRunRequestSchema,
  });
  const now = deps.clock.now();

  const outcome = await deps.store.transaction(async (uow) => {
    const reservation = await reserveKey(uow, idem, { now, ttlMs: deps.config.receiptTtlMs, lease: null, runId });
    if (reservation.kind !== 'reserved') return reservation;
    const run = await loadOwnedRunIn(deps, uow, runId, owner);
    assertCancellable(run, request.expected_version);
    const next: RunRecord = {
      ...run,
      version: run.version + 1,
      lifecycle: 'cancelled',
      completion: 'cancelled',
      activeTurn: null,
      cancelledAt: now,
      completedAt: now,
    };
    const events = [
      {
        kind: 'run.cancelled' as const,
        data: { turn_in_progress: run.activeTurn !== null, reason: request.reason ?? null },
      },
    ];
    const committed = await commitRunChange(uow, run, next, events, now);
    if (committed === undefined) {
      const current = await runAfterLostRace(uow, runId);
      assertCancellable(current, request.expected_version);
      throw new HelixError('version_conflict', { current_version: current.version });
    }
    const view = projectRun(committed);
    await completeReceipt(uow, idem, 200, view, runId);
    return { kind: 'done' as const, view };
  });

  if (outcome.kind !== 'done') return (await answerReservation(deps, outcome)) as ServiceResult<RunView>;
  deps.turns.abort(runId, 'run cancelled');
  // Another replica may be running the turn: it aborts on this signal; its finalize would fail anyway.
  deps.notifier.publish(runId, 'cancel');
  deps.notifier.publish(runId, 'events');
  return { status: 200, body: outcome.view, replayed: false };
};

/** A terminal run is not active; a nonterminal one is cancelled only at the version the client saw. */
const assertCancellable = (run: RunRecord, expectedVersion: number): void => {
  if (isRunTerminal(run)) throw new HelixError('run_not_active', { current_version: run.version });
  if (run.version !== expectedVersion) throw new HelixError('version_conflict', { current_version: run.version });
};
