import type { z } from 'zod';
import type { Ownership, Principal } from '../../auth/principal.js';
import type { RunOperation } from '../../domain/scopes.js';
import { ownerOf, requireOperation, requireRunId } from './access.js';
import type { RunServiceDeps } from './deps.js';
import {
  idempotentRequest,
  requireIdempotencyKey,
  type IdempotentRequest,
  type MutatingOperation,
} from '../idempotency.js';
import { parseInput } from '../validate.js';

export interface AcceptedMutation<R> {
  readonly request: R;
  readonly owner: Ownership;
  readonly idem: IdempotentRequest;
}

/**
 * The preamble every run mutation shares, in the contract's order: the operation's scope, the
 * run id, the Idempotency-Key, the strict body, then the owner the key is scoped by. Each check
 * throws its own error, so start, continue and cancel refuse bad input identically.
 */
export const acceptMutation = <S extends z.ZodType>(
  deps: RunServiceDeps,
  principal: Principal,
  mutation: {
    readonly operation: Extract<MutatingOperation, RunOperation>;
    readonly runId: string | null;
    readonly idempotencyKey: string | undefined;
    readonly body: unknown;
    readonly schema: S;
  },
): AcceptedMutation<z.output<S>> => {
  requireOperation(principal, mutation.operation);
  if (mutation.runId !== null) requireRunId(mutation.runId);
  const key = requireIdempotencyKey(mutation.idempotencyKey);
  const request = parseInput(mutation.schema, mutation.body);
  const owner = ownerOf(deps, principal);
  return { request, owner, idem: idempotentRequest(owner, mutation.operation, key, mutation.runId, request) };
};
