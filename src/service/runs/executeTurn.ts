import type { Admission } from './admission.js';
import type { RunServiceDeps } from './deps.js';
import { emptyOutcome, UsageMeter, type TurnOutcome } from '../../domain/turn.js';
import type { RunRecord } from '../../domain/run.js';
import { AGENT_TASK_PROVIDER, AGENT_TASKS_UNAVAILABLE } from '../../domain/agentTask.js';
import type { TurnExecutor } from '../../solver/executor.js';
import { turnCapabilities } from './turnCapabilities.js';
import { ATTR, inSpan, recordTurn } from '../../telemetry/instruments.js';

export class TurnTimeout extends Error {
  override readonly name = 'TurnTimeout';
}

/** Where agent tasks are not hosted, an agent-task turn fails typed instead of falling back (ATP-38). */
const NO_AGENT_TASKS: TurnExecutor = {
  provider: AGENT_TASK_PROVIDER,
  executeTurn: async () => emptyOutcome({ status: 'failed', failureCode: AGENT_TASKS_UNAVAILABLE }),
};

/** A run started for an external agent is worked by the agent-task executor, every turn, never another. */
const executorOf = (deps: RunServiceDeps, run: RunRecord): TurnExecutor => {
  if (run.runtimeProvider !== AGENT_TASK_PROVIDER) return deps.executor;
  return deps.agentTasks ?? NO_AGENT_TASKS;
};

/** One span and one duration sample per turn, however it ended (runTurn never throws). */
export const executeTurn = (
  deps: RunServiceDeps,
  run: RunRecord,
  controller: AbortController,
  instruction: string | null,
  admission: Admission,
): Promise<TurnOutcome> =>
  inSpan('helix.turn.execute', { [ATTR.runId]: run.runId, [ATTR.turn]: run.stepsUsed }, async (span) => {
    const started = deps.clock.now();
    const outcome = await runTurn(deps, run, controller, instruction, admission);
    recordTurn(span, deps.clock.now() - started, outcome.status, outcome.failureCode);
    return outcome;
  });

/**
 * Runs one claimed turn under its AbortSignal and effective deadline (the earlier of the turn
 * timeout and the run's expiry). Cancellation is cooperative: when the signal fires we stop
 * waiting at once; an executor that ignores the signal may keep working, but its late result can
 * no longer be finalized (finalize is compare-and-set on the claimed version).
 */
const runTurn = async (
  deps: RunServiceDeps,
  run: RunRecord,
  controller: AbortController,
  instruction: string | null,
  admission: Admission,
): Promise<TurnOutcome> => {
  const now = deps.clock.now();
  const deadline = Math.min(now + deps.config.turnTimeoutMs, run.expiresAt);
  const timer = setTimeout(
    () => controller.abort(new TurnTimeout('turn deadline reached')),
    Math.max(0, deadline - now),
  );
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(controller.signal.reason);
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  const meter = new UsageMeter();
  const metered = (outcome: TurnOutcome): TurnOutcome => (meter.used ? { ...outcome, usage: meter.total } : outcome);
  const capabilities = turnCapabilities(deps.registry, deps.store, {
    runId: run.runId,
    turn: run.stepsUsed,
    admitted: admission.admittedCapabilities,
    signal: controller.signal,
    now: () => deps.clock.now(),
  });
  // BRE-06: a typed capability refusal fails the turn under its own code, and nothing it read is admitted.
  const typed = (outcome: TurnOutcome): TurnOutcome => {
    const failureCode = capabilities.typedFailure();
    return failureCode === undefined ? outcome : emptyOutcome({ status: 'failed', failureCode });
  };
  try {
    const outcome = await Promise.race([
      executorOf(deps, run).executeTurn({
        runId: run.runId,
        ownerHash: run.ownerHash,
        turn: run.stepsUsed,
        objective: run.objective,
        answerContract: run.answerContract,
        constraints: run.constraints,
        instruction,
        answers: run.answers,
        databaseScope: run.databaseScope,
        admittedCapabilities: admission.admittedCapabilities,
        ownerModelProviders: admission.ownerModelProviders,
        capabilities,
        previousResult: run.latestResult,
        signal: controller.signal,
        deadline,
        usage: meter,
      }),
      aborted,
    ]);
    return metered(typed(outcome));
  } catch (err) {
    if (controller.signal.aborted) {
      const timedOut = controller.signal.reason instanceof TurnTimeout;
      return metered(emptyOutcome({ status: 'failed', failureCode: timedOut ? 'turn_timeout' : 'turn_aborted' }));
    }
    if (capabilities.typedFailure() !== undefined) return metered(typed(emptyOutcome()));
    deps.onExecutorError?.(err, run.runId);
    return metered(emptyOutcome({ status: 'failed', failureCode: 'executor_error' }));
  } finally {
    clearTimeout(timer);
  }
};
