import { HelixError } from '../../domain/errors.js';
import type { RunServiceDeps } from './deps.js';
import { answerUsedKey, type UsedKey } from '../idempotency.js';
import type { ServiceResult } from '../result.js';
import { settleRun } from './recovery.js';

/**
 * Answers a request whose Idempotency-Key was already used (`answerUsedKey`), after one check a
 * run needs: a first request that looks in progress but whose turn died is settled, and reported
 * as `outcome_unknown` rather than "try again".
 */
export const answerReservation = async (deps: RunServiceDeps, used: UsedKey): Promise<ServiceResult> => {
  if (used.kind === 'in_progress' && used.runId !== null && (await recoverIfDead(deps, used.runId)))
    throw new HelixError('outcome_unknown', { run_id: used.runId });
  return answerUsedKey(used);
};

/** Settles the run behind a live-looking reservation; true when its turn turned out to be dead. */
const recoverIfDead = async (deps: RunServiceDeps, runId: string): Promise<boolean> =>
  deps.store.transaction(async (uow) => {
    const run = await uow.runs.get(runId);
    if (run?.activeTurn == null) return false;
    if (await deps.liveness.isTurnAlive(uow, run.runId, run.activeTurn)) return false;
    await settleRun(deps, uow, run);
    return true;
  });
