import { StartRunRequestSchema } from '../../api/schemas.js';
import { projectRun, type RunView } from '../../api/runView.js';
import type { Principal } from '../../auth/principal.js';
import { deriveAnswerContract, type AnswerContract } from '../../domain/answerContract/contract.js';
import { focusWords } from '../../domain/answerContract/focusTerms.js';
import { questionParts } from '../../domain/answerContract/questionParts.js';
import { sha256Hex } from '../../domain/hashing.js';
import type { RunRecord } from '../../domain/run.js';
import type { TurnExecutorKind } from '../../domain/agentTask.js';
import { HelixError } from '../../domain/errors.js';
import { acceptMutation } from './acceptMutation.js';
import { admitScopes } from './admission.js';
import type { RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';
import { completeReceipt, reserveKey } from '../idempotency.js';
import { answerReservation } from './reservationOutcome.js';

/** Who works the run's turns; an agent-task run needs a server that can host agent tasks. */
const runtimeProviderOf = (deps: RunServiceDeps, kind: TurnExecutorKind): string => {
  if (kind === 'helix') return deps.executor.provider;
  if (deps.agentTasks === undefined)
    throw new HelixError('invalid_request', {
      issues: [{ path: 'turn_executor', message: 'this server does not host agent tasks' }],
    });
  return deps.agentTasks.provider;
};

/** The run's answer contract, its focus weighted by the rarity of each word in the admitted corpus. */
const answerContractFor = async (
  deps: RunServiceDeps,
  objective: string,
  admitted: ReadonlySet<string>,
): Promise<AnswerContract> => {
  const words = questionParts(objective).flatMap(focusWords);
  const rarity = await deps.registry.corpusRarity(admitted, words);
  return deriveAnswerContract(objective, rarity, deps.config.answerMinFocusCoverage);
};

/**
 * POST /api/v1/agent-runs: records a bounded objective. It never executes a turn; the run starts
 * at version 1, `waiting`, `needs_more_evidence`, terminal authority `not_evaluated`.
 */
export const startRun = async (
  deps: RunServiceDeps,
  principal: Principal,
  idempotencyKey: string | undefined,
  body: unknown,
): Promise<ServiceResult<RunView>> => {
  const { request, owner, idem } = acceptMutation(deps, principal, {
    operation: 'run.start',
    runId: null,
    idempotencyKey,
    body,
    schema: StartRunRequestSchema,
  });
  const admission = await admitScopes(request.database_scope, principal, deps.config.scopes, deps.policy);
  const runtimeProvider = runtimeProviderOf(deps, request.turn_executor ?? 'helix');
  const answerContract = await answerContractFor(deps, request.objective, admission.admittedCapabilities);
  const now = deps.clock.now();
  const runId = deps.newId('run');

  const outcome = await deps.store.transaction(async (uow) => {
    const reservation = await reserveKey(uow, idem, { now, ttlMs: deps.config.receiptTtlMs, lease: null, runId });
    if (reservation.kind !== 'reserved') return reservation;
    const run: RunRecord = {
      runId,
      ownerHash: owner.ownerHash,
      tenantRef: owner.tenantRef,
      accountRef: owner.accountRef,
      objective: request.objective,
      objectiveHash: sha256Hex(request.objective),
      runtimeProvider,
      lifecycle: 'waiting',
      completion: 'needs_more_evidence',
      terminalAuthority: 'not_evaluated',
      version: 1,
      contract: request.completion_contract,
      answerContract,
      constraints: request.constraints,
      databaseScope: request.database_scope,
      budget: request.budget,
      stepsUsed: 0,
      expiresAt: now + request.budget.expires_in_seconds * 1000,
      unresolvedRequirements: [],
      contradictions: [],
      pendingQuestions: [],
      answers: [],
      evidenceRefs: [],
      supportedClaims: [],
      latestResult: null,
      lastEventSeq: 1,
      activeTurn: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      cancelledAt: null,
    };
    await uow.runs.insert(run);
    await uow.events.append(
      runId,
      1,
      1,
      [
        {
          kind: 'run.started',
          data: { objective_hash: run.objectiveHash, database_scope: run.databaseScope, budget: run.budget },
        },
      ],
      now,
    );
    const view = projectRun(run);
    await completeReceipt(uow, idem, 201, view, runId);
    return { kind: 'done' as const, view };
  });

  if (outcome.kind === 'done') {
    deps.notifier.publish(runId, 'events');
    return { status: 201, body: outcome.view, replayed: false };
  }
  return answerReservation(deps, outcome) as Promise<ServiceResult<RunView>>;
};
