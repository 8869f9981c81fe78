import type { RunRecord } from '../../domain/run.js';
import { emptyOutcome, type TurnOutcome } from '../../domain/turn.js';
import type { RunServiceDeps } from './deps.js';
import { TurnTimeout } from './executeTurn.js';
import { commitRunChange } from './runChange.js';
import type { TurnSlot } from './turnSlots.js';

/** A queued turn either starts (`running`, the claimed run one version on) or ends before running. */
export type QueuedStart =
  | { readonly kind: 'started'; readonly run: RunRecord }
  | { readonly kind: 'ended'; readonly outcome: TurnOutcome };

/**
 * Waits, as `queued`, for a free turn slot, then moves the claimed turn to `running` with a
 * compare-and-set (v -> v+1). The wait ends early on a cancel (the turn's controller is aborted)
 * or at the turn's effective deadline; then there is nothing to run and the caller finalizes the
 * failed outcome, which a cancel has already won over.
 */
export const startQueuedTurn = async (
  deps: RunServiceDeps,
  queued: RunRecord,
  slot: TurnSlot,
  controller: AbortController,
): Promise<QueuedStart> => {
  const now = deps.clock.now();
  const deadline = Math.min(now + deps.config.turnTimeoutMs, queued.expiresAt);
  const timer = setTimeout(
    () => controller.abort(new TurnTimeout('turn deadline reached while queued')),
    Math.max(0, deadline - now),
  );
  const aborted = new Promise<'aborted'>((resolve) => {
    if (controller.signal.aborted) resolve('aborted');
    else controller.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  try {
    if ((await Promise.race([slot.ready.then(() => 'ready' as const), aborted])) === 'aborted') {
      const timedOut = controller.signal.reason instanceof TurnTimeout;
      return {
        kind: 'ended',
        outcome: emptyOutcome({ status: 'failed', failureCode: timedOut ? 'turn_timeout' : 'turn_aborted' }),
      };
    }
  } finally {
    clearTimeout(timer);
  }
  const started = await deps.store.transaction(async (uow) => {
    const current = await uow.runs.get(queued.runId);
    if (
      current === undefined ||
      current.version !== queued.version ||
      current.activeTurn?.turnId !== queued.activeTurn?.turnId
    )
      return undefined;
    return commitRunChange(
      uow,
      current,
      { ...current, version: current.version + 1, lifecycle: 'running' },
      [],
      deps.clock.now(),
    );
  });
  // The run moved on while the turn waited (a cancel from another process, a recovery): finalize will say which.
  if (started === undefined)
    return { kind: 'ended', outcome: emptyOutcome({ status: 'failed', failureCode: 'turn_aborted' }) };
  deps.notifier.publish(queued.runId, 'events');
  return { kind: 'started', run: started };
};
