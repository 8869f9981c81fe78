import type { ContinueRunRequest } from '../../api/schemas.js';
import type { Ownership } from '../../auth/principal.js';
import { answerShapeIssue } from '../../domain/answers.js';
import { HelixError } from '../../domain/errors.js';
import { isRunTerminal, type RunRecord } from '../../domain/run.js';
import { loadOwnedRunIn } from './access.js';
import type { RunServiceDeps } from './deps.js';
import { reserveKey, type IdempotentRequest, type Reservation } from '../idempotency.js';
import { commitRunChange, runAfterLostRace } from './runChange.js';
import type { TurnSlot } from './turnSlots.js';
import type { UnitOfWork } from '../../store/port.js';
import { traced } from '../../telemetry/instruments.js';

export interface TurnClaim {
  readonly runId: string;
  readonly turnId: string;
  readonly owner: Ownership;
  readonly idem: IdempotentRequest;
  readonly request: ContinueRunRequest;
  readonly lease: { readonly expiresAt: number; readonly workerId: string };
  readonly now: number;
  /**
   * ATP-31: the answering credential's executor hash (src/auth/agentExecutor.ts), or undefined when
   * a person signed in to the console answers (answerPendingQuestion.ts, the only such path).
   */
  readonly answeringCredential: string | undefined;
}

/**
 * One transaction: reserve the Idempotency-Key with a processing lease, check the run can take a
 * turn, take a turn slot (src/service/runs/turnSlots.ts) and compare-and-set the run to `running`, or
 * `queued` when the process has no free slot (version v -> v+1, one step consumed, answers
 * recorded). Any refusal rolls the reservation back, so a rejected request is never stored, and
 * gives the slot back.
 */
export const claimTurn = traced(
  'helix.turn.claim',
  async (
    deps: RunServiceDeps,
    claim: TurnClaim,
  ): Promise<{ kind: 'claimed'; run: RunRecord; slot: TurnSlot } | Exclude<Reservation, { kind: 'reserved' }>> => {
    let slot: TurnSlot | undefined;
    try {
      return await deps.store.transaction(async (uow) => {
        // A retried transaction (lock or serialization failure) gives back what its first attempt took.
        slot?.release();
        slot = undefined;
        const { idem, request, lease, now } = claim;
        const reservation = await reserveKey(uow, idem, {
          now,
          ttlMs: deps.config.receiptTtlMs,
          lease,
          runId: claim.runId,
        });
        if (reservation.kind !== 'reserved') return reservation;
        const run = await loadOwnedRunIn(deps, uow, claim.runId, claim.owner);
        assertContinuable(run, request);
        await assertConfirmedByPerson(uow, run, claim);
        const taken = deps.slots.reserve(claim.owner.ownerHash);
        slot = taken;
        const committed = await commitClaim(uow, run, claim, taken.queued);
        // Only a request that won the compare-and-set learns it is over a bound; throwing rolls the claim back.
        if (taken.refusal !== undefined) throw taken.refusal;
        return { kind: 'claimed' as const, run: committed, slot: taken };
      });
    } catch (err) {
      slot?.release();
      throw err;
    }
  },
);

/** The claim itself: version v -> v+1, one step consumed, answers recorded, the turn's lease set. */
const commitClaim = async (uow: UnitOfWork, run: RunRecord, claim: TurnClaim, queued: boolean): Promise<RunRecord> => {
  const { request, lease, now } = claim;
  const answered = new Set(request.answers.map((a) => a.question_id));
  const claimed: RunRecord = {
    ...run,
    version: run.version + 1,
    lifecycle: queued ? 'queued' : 'running',
    // The outcome of the turn is not known until it is finalized.
    completion: 'pending',
    stepsUsed: run.stepsUsed + 1,
    answers: [...run.answers, ...request.answers],
    pendingQuestions: run.pendingQuestions.filter((q) => !answered.has(q.question_id)),
    activeTurn: { turnId: claim.turnId, workerId: lease.workerId, leaseExpiresAt: lease.expiresAt, startedAt: now },
  };
  const events = [
    {
      kind: 'run.continuation_received' as const,
      data: {
        turn: claimed.stepsUsed,
        has_instruction: request.instruction !== undefined,
        answered_question_ids: [...answered],
      },
    },
  ];
  const committed = await commitRunChange(uow, run, claimed, events, now);
  if (committed !== undefined) return committed;
  // Lost to a concurrent claim or cancel: refuse as the winner's state does (run_busy, run_not_active, ...).
  const current = await runAfterLostRace(uow, run.runId);
  assertContinuable(current, request);
  throw new HelixError('version_conflict', { current_version: current.version });
};

/**
 * ATP-31, agent execution cannot authorize a human confirmation: a `confirmation` question is not
 * answered by a credential that executed agent work in this run (claimed or completed one of its
 * agent calls). Checked in the claim's transaction, so a refusal spends nothing and bumps no version.
 */
const assertConfirmedByPerson = async (uow: UnitOfWork, run: RunRecord, claim: TurnClaim): Promise<void> => {
  if (claim.answeringCredential === undefined) return;
  const confirmations = new Set(
    run.pendingQuestions.filter((q) => q.kind === 'confirmation').map((q) => q.question_id),
  );
  if (!claim.request.answers.some((a) => confirmations.has(a.question_id))) return;
  if (await uow.agentExecutors.executed(run.runId, claim.answeringCredential))
    throw new HelixError('confirmation_requires_person', { current_version: run.version });
};

const assertContinuable = (run: RunRecord, request: ContinueRunRequest): void => {
  if (isRunTerminal(run)) {
    const code = run.completion === 'budget_exhausted' ? 'budget_exhausted' : 'run_not_active';
    throw new HelixError(code, { current_version: run.version });
  }
  if (run.activeTurn !== null) throw new HelixError('run_busy', { current_version: run.version });
  if (run.version !== request.expected_version)
    throw new HelixError('version_conflict', { current_version: run.version });
  // Each answer must name an outstanding pending question, and each question is answered once.
  const pending = new Map(run.pendingQuestions.map((q) => [q.question_id, q]));
  const seen = new Set<string>();
  const issues: { path: string; message: string }[] = [];
  request.answers.forEach((answer, index) => {
    const path = `answers.${index}.question_id`;
    const question = pending.get(answer.question_id);
    if (question === undefined) issues.push({ path, message: 'not an outstanding pending question' });
    else if (seen.has(answer.question_id)) issues.push({ path, message: 'answered more than once' });
    const shape = question === undefined ? undefined : answerShapeIssue(question, answer.value);
    if (shape !== undefined) issues.push({ path: `answers.${index}.value`, message: shape });
    seen.add(answer.question_id);
  });
  if (issues.length > 0) throw new HelixError('invalid_answer', { issues });
};
