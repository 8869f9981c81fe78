import { HelixError } from '../../domain/errors.js';
import type { RunServiceDeps, ServiceResult } from './deps.js';
import type { Reservation } from '../idempotency.js';
import { settleRun } from './recovery.js';

/**
 * Answers a request whose Idempotency-Key was already used: replay the stored response, or report
 * that the first request is still running or died without recording its outcome.
 */
export const answerReservation = async (
  deps: RunServiceDeps,
  reservation: Exclude<Reservation, { kind: 'reserved' }>,
): Promise<ServiceResult> => {
  switch (reservation.kind) {
    case 'replay':
      return { status: reservation.status, body: reservation.body, replayed: true };
    case 'interrupted':
      throw new HelixError('outcome_unknown', runDetail(reservation.runId));
    case 'in_progress': {
      if (reservation.runId !== null && (await recoverIfDead(deps, reservation.runId))) {
        throw new HelixError('outcome_unknown', runDetail(reservation.runId));
      }
      throw new HelixError('idempotency_in_progress', runDetail(reservation.runId));
    }
  }
};

const runDetail = (runId: string | null) => (runId === null ? {} : { run_id: runId });

/** Settles the run behind a live-looking reservation; true when its turn turned out to be dead. */
const recoverIfDead = async (deps: RunServiceDeps, runId: string): Promise<boolean> =>
  deps.store.transaction(async (uow) => {
    const run = await uow.runs.get(runId);
    if (run?.activeTurn == null) return false;
    if (await deps.liveness.isTurnAlive(uow, run.runId, run.activeTurn)) return false;
    await settleRun(deps, uow, run);
    return true;
  });
