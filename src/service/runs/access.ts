import type { Principal } from '../../auth/principal.js';
import { ownershipOf, type Ownership } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import { RUN_ID_PATTERN, type RunRecord } from '../../domain/run.js';
import { requireScopes, type RunOperation } from '../../domain/scopes.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RunServiceDeps } from './deps.js';
import { needsSettling, settleRun } from './recovery.js';

/** Every use case starts here: the principal must hold the operation's scope (RFC 6750 §3.1). */
export const requireOperation = (principal: Principal, operation: RunOperation): void =>
  requireScopes(principal.scopes, operation);

export const ownerOf = (deps: RunServiceDeps, principal: Principal): Ownership =>
  ownershipOf(principal, deps.config.instanceSecret);

export const requireRunId = (runId: string): void => {
  if (!RUN_ID_PATTERN.test(runId)) throw new HelixError('invalid_run_id');
};

/** What loading a run checks ownership by: the owner hash alone. */
type OwnerKey = Pick<Ownership, 'ownerHash'>;

/** Another owner's run is reported exactly like a run that does not exist. */
const ownedOrNotFound = (run: RunRecord | undefined, owner: OwnerKey): RunRecord => {
  if (run === undefined || run.ownerHash !== owner.ownerHash) throw new HelixError('not_found');
  return run;
};

/** Loads and settles an owned run inside a transaction the caller is already in. */
export const loadOwnedRunIn = async (
  deps: RunServiceDeps,
  uow: UnitOfWork,
  runId: string,
  owner: OwnerKey,
): Promise<RunRecord> => settleRun(deps, uow, ownedOrNotFound(await uow.runs.get(runId), owner));

/** Loads an owned run for reading; only opens a write transaction when the run needs settling. */
export const loadOwnedRun = async (deps: RunServiceDeps, runId: string, owner: OwnerKey): Promise<RunRecord> => {
  const run = ownedOrNotFound(await deps.store.read.runs.get(runId), owner);
  if (!(await needsSettling(deps, run))) return run;
  return deps.store.transaction((uow) => loadOwnedRunIn(deps, uow, runId, owner));
};
