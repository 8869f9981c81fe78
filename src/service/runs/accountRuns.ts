import type { Ownership } from '../../auth/principal.js';
import { dataSubjectKey } from '../../domain/identityHashes.js';
import { HelixError } from '../../domain/errors.js';
import type { RunRecord } from '../../domain/run.js';
import { scopeOf } from '../subjects/subjectScope.js';
import { loadOwnedRun, requireRunId } from './access.js';
import type { RunServiceDeps } from './deps.js';

/** The owners whose runs a signed-in account sees, and the key its run-list cursors are bound to. */
export interface AccountOwners {
  readonly subjectKey: string;
  readonly ownerHashes: readonly string[];
}

/**
 * How the console maps a browser account to run owners: a run's owner is an opaque hash of
 * (tenant, issuer, subject, account), so the console cannot recompute it from a session. It uses the
 * attribution ADR-0004 subject access already keeps instead: every owner registers under its
 * account's data-subject key with its first write (src/service/idempotency.ts), and an `hlx_` key's
 * owner is derived from the key row (src/service/subjects/subjectScope.ts). So an account's runs
 * are those its linked OAuth agents and its API keys started, and nobody else's.
 */
export const ownersOfAccount = async (deps: RunServiceDeps, accountId: string): Promise<AccountOwners> => {
  const instanceSecret = deps.config.instanceSecret;
  const subjectKey = dataSubjectKey(instanceSecret, accountId);
  const registered = await deps.store.read.subjects.registeredOwners(subjectKey);
  const { ownerHashes } = await scopeOf({ instanceSecret }, deps.store.read, accountId, registered);
  return { subjectKey, ownerHashes };
};

/** One of the account's runs, settled like an inspect; any other run is "not found", as over REST. */
export const loadAccountRun = async (deps: RunServiceDeps, accountId: string, runId: string): Promise<RunRecord> => {
  requireRunId(runId);
  const [run, owners] = await Promise.all([deps.store.read.runs.get(runId), ownersOfAccount(deps, accountId)]);
  if (run === undefined || !owners.ownerHashes.includes(run.ownerHash)) throw new HelixError('not_found');
  const owner: Pick<Ownership, 'ownerHash'> = run;
  return loadOwnedRun(deps, runId, owner);
};
