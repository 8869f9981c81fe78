import { CompleteAgentCallRequestSchema } from '../../api/agentTaskSchemas.js';
import { projectRun } from '../../api/runView.js';
import type { Ownership } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import type { RunRecord } from '../../domain/run.js';
import { parseSubmittedResult } from '../../solver/model/resultTool.js';
import { loadOwnedRun } from '../runs/access.js';
import type { RunServiceDeps } from '../runs/deps.js';
import { watchRun } from '../runs/runNotifier.js';
import { agentUseCase, ownedCallOf, recordAgentExecutor } from './liveCall.js';

/** How long a completion waits for its turn to be finalized before answering with the run as it is. */
const FINALIZE_WAIT_MS = 30_000;

/**
 * ATP-24, ATP-25: the raw final JSON is validated against the advertised output schema (the model
 * executor's own result parser, so both bounds and field rules are the same), then handed to the
 * turn as its outcome. Helix then audits it like any executor's candidate (judgeTurn: re-entry,
 * the evidence gate, terminal authority citing only this task's receipts) and finalizes the turn;
 * the answer is the run after that, for the agent to follow.
 */
export const completeAgentCall = agentUseCase(
  'agent_task.complete',
  CompleteAgentCallRequestSchema,
  async ({ deps, principal, request, owner, calls }) => {
    const call = await ownedCallOf(deps, calls, owner, request.ownedRef);
    // ATP-31: an owner token handed to another credential makes that one an executor too.
    await recordAgentExecutor(deps, principal, call.runId);
    const raw = typeof request.result === 'string' ? request.result : JSON.stringify(request.result);
    const parsed = parseSubmittedResult(raw);
    // A refused completion leaves the task open: the agent can fix the JSON and complete again.
    if (!parsed.ok) throw new HelixError('invalid_request', { issues: [{ path: 'result', message: parsed.error }] });
    // Checked again now: a request under the same token may have ended the call while this one waited.
    call.complete(request.ownedRef.ownerToken, parsed.result);
    const run = await turnSettled(deps, owner, call.runId, call.turn);
    return { body: { run: projectRun(run) } };
  },
);

/** The run once the turn is no longer active (finalize publishes a signal), or as it is at the bound. */
const turnSettled = async (deps: RunServiceDeps, owner: Ownership, runId: string, turn: number): Promise<RunRecord> => {
  const deadline = deps.clock.now() + FINALIZE_WAIT_MS;
  const watch = watchRun(deps.notifier, runId);
  try {
    for (;;) {
      const run = await loadOwnedRun(deps, runId, owner);
      if (run.activeTurn === null || run.stepsUsed !== turn || deps.clock.now() >= deadline) return run;
      await watch.next(250);
    }
  } finally {
    watch.close();
  }
};
