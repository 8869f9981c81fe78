import { errorBody } from '../../api/errorBody.js';
import { projectRun, type RunView } from '../../api/runView.js';
import { HelixError } from '../../domain/errors.js';
import { isTerminalLifecycle } from '../../domain/statuses.js';
import type { RunRecord } from '../../domain/run.js';
import type { NewRunEvent } from '../../domain/events.js';
import { usageEventData, type TurnOutcome } from '../../domain/turn.js';
import { judgeTurn } from '../../domain/verdict.js';
import type { Admission } from './admission.js';
import type { RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';
import { completeReceipt, type IdempotentRequest } from '../idempotency.js';
import { commitRunChange } from './runChange.js';
import { recordRunOutcome, traced } from '../../telemetry/instruments.js';

type Finalized = { kind: 'finalized'; view: RunView } | { kind: 'discarded'; error: HelixError };

/**
 * Persists one turn with compare-and-set on the claimed version: run row, events, admitted
 * artifacts and the idempotency receipt commit together. If the run moved on while the turn ran
 * (a cancel won, or another process recovered it), the late result is discarded.
 */
export const finalizeTurn = traced(
  'helix.turn.finalize',
  async (
    deps: RunServiceDeps,
    idem: IdempotentRequest,
    claimed: RunRecord,
    outcome: TurnOutcome,
    admission: Admission,
  ): Promise<ServiceResult<RunView>> => {
    const result = await deps.store.transaction(async (uow): Promise<Finalized> => {
      const now = deps.clock.now();
      const discard = async (run: RunRecord | undefined): Promise<Finalized> => {
        const error =
          run?.lifecycle === 'cancelled'
            ? new HelixError('run_cancelled', { run_id: claimed.runId, current_version: run.version })
            : new HelixError('outcome_unknown', { run_id: claimed.runId });
        const receipt = await uow.receipts.get(idem.receipt);
        if (receipt?.state === 'processing')
          await completeReceipt(uow, idem, error.status, errorBody(error), claimed.runId);
        return { kind: 'discarded', error };
      };
      // The claimed record is the row as the claim committed it. Every change to a run moves its
      // version, so the compare-and-set on that version below is the check a re-read would make:
      // the row is read again only when the set loses (a cancel, a recovery), to say which.
      const run = claimed;
      const verdict = judgeTurn(run, outcome, {
        turn: run.stepsUsed,
        admittedCapabilities: admission.admittedCapabilities,
        requiredFamilies: admission.requiredFamilies,
        now,
      });
      const projectedRefs = new Set(verdict.projectedArtifacts.map((a) => a.ref));
      const next: RunRecord = {
        ...run,
        version: run.version + 1,
        lifecycle: verdict.lifecycle,
        completion: verdict.completion,
        terminalAuthority: verdict.terminalAuthority,
        unresolvedRequirements: verdict.unresolvedRequirements,
        contradictions: outcome.contradictions,
        pendingQuestions: verdict.pendingQuestions,
        evidenceRefs: verdict.evidenceRefs,
        supportedClaims: outcome.supportedClaims.filter((c) => c.refs.every((ref) => projectedRefs.has(ref))),
        latestResult: verdict.latestResult,
        activeTurn: null,
        completedAt: isTerminalLifecycle(verdict.lifecycle) ? now : null,
      };
      const committed = await commitRunChange(uow, run, next, withTurnUsage(verdict.events, outcome), now);
      // Read committed: a cancel may have landed between the read and the write; it wins.
      if (committed === undefined) return discard(await uow.runs.get(claimed.runId));
      // Every admitted artifact is kept, cited or not: the bundle shows the uncited ones as observations.
      await uow.artifacts.admit(run.runId, run.stepsUsed, verdict.admittedArtifacts, now);
      const view = projectRun(committed);
      await completeReceipt(uow, idem, 200, view, run.runId);
      return { kind: 'finalized', view };
    });
    if (result.kind === 'discarded') throw result.error;
    recordRunOutcome(result.view.completion_status, result.view.lifecycle_status);
    return { status: 200, body: result.view, replayed: false };
  },
);

/**
 * The turn's token usage rides on its closing event (the last one): counts only, so what a
 * provider sent — prompts, reasoning, tool arguments — never reaches the event log.
 */
const withTurnUsage = (events: readonly NewRunEvent[], outcome: TurnOutcome): readonly NewRunEvent[] => {
  const closing = events.at(-1);
  if (outcome.usage === undefined || closing === undefined) return events;
  return [...events.slice(0, -1), { ...closing, data: { ...closing.data, usage: usageEventData(outcome.usage) } }];
};
