import type { z } from 'zod';
import type { OwnedRef } from '../../api/agentTaskSchemas.js';
import { agentExecutorHash } from '../../auth/agentExecutor.js';
import type { Ownership, Principal } from '../../auth/principal.js';
import { HelixError, isHelixError } from '../../domain/errors.js';
import type { AgentTaskOperation } from '../../domain/scopes.js';
import { requireScopes } from '../../domain/scopes.js';
import type { AgentCalls } from '../../solver/agentTask/agentTaskExecutor.js';
import type { LiveAgentCall } from '../../solver/agentTask/liveAgentCall.js';
import { loadOwnedRun, ownerOf } from '../runs/access.js';
import type { RunServiceDeps } from '../runs/deps.js';
import type { ServiceResult } from '../result.js';
import { parseInput } from '../validate.js';

/** Every agent-task use case starts here: the operation's scope, the strict request, the owner. */
export const acceptAgentRequest = <S extends z.ZodType>(
  deps: RunServiceDeps,
  principal: Principal,
  operation: AgentTaskOperation,
  schema: S,
  body: unknown,
): { request: z.output<S>; owner: Ownership; calls: AgentCalls } => {
  requireScopes(principal.scopes, operation);
  const request = parseInput(schema, body);
  // A server without the agent-task executor has no pending calls: every reference is unknown.
  if (deps.agentTasks === undefined) throw new HelixError('agent_call_not_found');
  return { request, owner: ownerOf(deps, principal), calls: deps.agentTasks.calls };
};

/** What an agent-task use case answers: its body, and whether it is a retained receipt. */
export interface AgentAnswer {
  readonly body: unknown;
  readonly replayed?: boolean;
}

export interface AcceptedAgentRequest<R> {
  readonly deps: RunServiceDeps;
  readonly principal: Principal;
  readonly request: R;
  readonly owner: Ownership;
  readonly calls: AgentCalls;
}

/**
 * One agent-task use case: the shared preamble (scope, strict request, owner), then `work`. Every
 * one of them answers 200: a refusal is a HelixError.
 */
export const agentUseCase =
  <S extends z.ZodType>(
    operation: AgentTaskOperation,
    schema: S,
    work: (accepted: AcceptedAgentRequest<z.output<S>>) => Promise<AgentAnswer>,
  ) =>
  async (deps: RunServiceDeps, principal: Principal, body: unknown): Promise<ServiceResult> => {
    const answer = await work({ deps, principal, ...acceptAgentRequest(deps, principal, operation, schema, body) });
    return { status: 200, replayed: answer.replayed ?? false, body: answer.body };
  };

/**
 * ATP-31: the credential that takes up an agent call, or submits its result, is recorded durably
 * for the run before it acts (a failed write stops it), so that a confirmation it later answers
 * for the run can be refused (claimTurn.ts). Recording again is a no-op.
 */
export const recordAgentExecutor = async (deps: RunServiceDeps, principal: Principal, runId: string): Promise<void> => {
  const executorHash = agentExecutorHash(principal, deps.config.instanceSecret);
  await deps.store.transaction((uow) => uow.agentExecutors.record(runId, executorHash, deps.clock.now()));
};

/** ATP-15: the live call a task reference names; another owner's call is "not found" (no oracle). */
export const liveCallOf = (
  calls: AgentCalls,
  owner: Ownership,
  ref: { readonly runId: string; readonly callId: string },
): LiveAgentCall => {
  const call = calls.get(ref.callId);
  if (call === undefined || call.ownerHash !== owner.ownerHash || call.runId !== ref.runId)
    throw new HelixError('agent_call_not_found');
  return call;
};

/**
 * The live call an owned reference holds. ATP-36: once the run is cancelled the call is gone and a
 * late result is refused as `run_cancelled`; a forged or stale token owns nothing.
 */
export const ownedCallOf = async (
  deps: RunServiceDeps,
  calls: AgentCalls,
  owner: Ownership,
  ref: OwnedRef,
): Promise<LiveAgentCall> => {
  const call = calls.get(ref.callId);
  if (
    call !== undefined &&
    call.ownerHash === owner.ownerHash &&
    call.runId === ref.runId &&
    call.isOwnedBy(ref.ownerToken)
  )
    return call;
  if (call === undefined) await refuseLateResult(deps, owner, ref.runId);
  throw new HelixError('agent_call_not_found');
};

const refuseLateResult = async (deps: RunServiceDeps, owner: Ownership, runId: string): Promise<void> => {
  try {
    const run = await loadOwnedRun(deps, runId, owner);
    if (run.lifecycle === 'cancelled') throw new HelixError('run_cancelled', { run_id: runId });
  } catch (err) {
    if (isHelixError(err) && err.code === 'run_cancelled') throw err;
    throw new HelixError('agent_call_not_found');
  }
};
