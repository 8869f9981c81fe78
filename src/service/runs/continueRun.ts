import { ContinueRunRequestSchema } from '../../api/schemas.js';
import type { RunView } from '../../api/runView.js';
import { agentExecutorHash } from '../../auth/agentExecutor.js';
import type { Principal } from '../../auth/principal.js';
import { isRunTerminal } from '../../domain/run.js';
import { loadOwnedRun } from './access.js';
import { acceptMutation } from './acceptMutation.js';
import { admitScopes } from './admission.js';
import { claimTurn } from './claimTurn.js';
import { processingLeaseMs, type RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';
import { executeTurn } from './executeTurn.js';
import { finalizeTurn } from './finalizeTurn.js';
import { answerReservation } from './reservationOutcome.js';
import { startQueuedTurn } from './startQueuedTurn.js';
import { ATTR, inSpan } from '../../telemetry/instruments.js';

/**
 * Who answers the run's questions: a credential (REST, MCP), or a person signed in to the console,
 * which only the console's answer path (answerPendingQuestion.ts) may claim. ATP-31: a credential
 * that executed agent work in the run cannot answer its confirmations; a signed-in person can.
 */
export type Answerer = 'credential' | 'signed_in_person';

/**
 * POST /api/v1/agent-runs/{run_id}/continue: claim the turn (v -> v+1), execute exactly one
 * governed turn under its signal and deadline, finalize with compare-and-set (v+1 -> v+2).
 */
export const continueRun = async (
  deps: RunServiceDeps,
  principal: Principal,
  runId: string,
  idempotencyKey: string | undefined,
  body: unknown,
  answerer: Answerer = 'credential',
): Promise<ServiceResult<RunView>> => {
  const { request, owner, idem } = acceptMutation(deps, principal, {
    operation: 'run.continue',
    runId,
    idempotencyKey,
    body,
    schema: ContinueRunRequestSchema,
  });
  const snapshot = await loadOwnedRun(deps, runId, owner);
  // Admission runs again before every continuation, so a revoked scope bites on this turn.
  const admission = await admitScopes(snapshot.databaseScope, principal, deps.config.scopes, deps.policy);
  // BRE-04, BRE-06: a room-bound run whose binding, membership, source or evidence no longer holds
  // is refused here, typed, before a turn is claimed: no step is spent and nothing is read. Only
  // for a continue that could claim: an ended run, a stale version or a replay keeps its own
  // answer, and the capabilities recheck inside the turn whatever happens here.
  if (!isRunTerminal(snapshot) && snapshot.version === request.expected_version)
    await deps.registry.precheck(admission.admittedCapabilities, { runId, now: () => deps.clock.now() });
  const now = deps.clock.now();
  const lease = { expiresAt: now + processingLeaseMs(deps.config), workerId: deps.config.workerId };
  const turnId = deps.newId('turn');

  // Registered before the claim commits: from then on this process must look alive to others,
  // and it stays registered until finalize, while it still owns the lease.
  const controller = deps.turns.begin(runId, turnId);
  const unsubscribe = deps.notifier.subscribe(runId, (signal) => {
    if (signal === 'cancel') controller.abort(new Error('run cancelled'));
  });
  try {
    return await inSpan('helix.turn', { [ATTR.runId]: runId }, async () => {
      const answeringCredential =
        answerer === 'signed_in_person' ? undefined : agentExecutorHash(principal, deps.config.instanceSecret);
      const claim = await claimTurn(deps, { runId, turnId, owner, idem, request, lease, now, answeringCredential });
      if (claim.kind !== 'claimed') return (await answerReservation(deps, claim)) as ServiceResult<RunView>;
      deps.notifier.publish(runId, 'events');
      // The turn slot is held from the claim until this request ends, however it ends.
      const { slot } = claim;
      try {
        let run = claim.run;
        if (slot.queued) {
          const start = await startQueuedTurn(deps, run, slot, controller);
          if (start.kind === 'ended') return await finalizeTurn(deps, idem, run, start.outcome, admission);
          run = start.run;
        }
        const outcome = await executeTurn(deps, run, controller, request.instruction ?? null, admission);
        return await finalizeTurn(deps, idem, run, outcome, admission);
      } finally {
        slot.release();
      }
    });
  } finally {
    unsubscribe();
    deps.turns.end(runId, turnId);
    deps.notifier.publish(runId, 'events');
  }
};
