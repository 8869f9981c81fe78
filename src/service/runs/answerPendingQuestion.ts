import type { RunView } from '../../api/runView.js';
import { apiKeyPrincipal } from '../../auth/authenticate.js';
import { ownerHashOf, type Principal } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import { ScopeSet } from '../../domain/scopes.js';
import { loadAccountRun } from './accountRuns.js';
import { continueRun } from './continueRun.js';
import type { RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';

export interface ConsoleAnswer {
  readonly questionId: string;
  /** The answer value: text, a confirmation `{ is_confirmed, feedback? }` or a skip `{ is_skipped: true }`. */
  readonly value: unknown;
  readonly expectedVersion: number;
  /** Rendered into the page's form, so submitting the same form twice replays the first answer. */
  readonly idempotencyKey: string;
}

/**
 * The console answers a pending question as the run's owner would: a continuation with the answer
 * (POST …/continue), so the turn runs under every rule of the contract. A session holds no owner
 * tuple (only hashes are stored), so it acts through the credential that owns the run: an active
 * `hlx_` key of this account whose owner hash is the run's and that may continue runs. No new
 * authority is made up: a run an OAuth agent started, or whose key is revoked, is answered by its agent.
 */
export const answerPendingQuestion = async (
  deps: RunServiceDeps,
  accountId: string,
  runId: string,
  answer: ConsoleAnswer,
): Promise<ServiceResult<RunView>> => {
  const run = await loadAccountRun(deps, accountId, runId);
  const principal = await owningKeyPrincipal(deps, accountId, run.ownerHash);
  // ATP-31: a signed-in browser session is a person present, so the console may confirm even
  // when the key it acts through is the one the run's agent executes with.
  return continueRun(
    deps,
    principal,
    run.runId,
    answer.idempotencyKey,
    { expected_version: answer.expectedVersion, answers: [{ question_id: answer.questionId, value: answer.value }] },
    'signed_in_person',
  );
};

const owningKeyPrincipal = async (deps: RunServiceDeps, accountId: string, ownerHash: string): Promise<Principal> => {
  const keys = await deps.store.read.apiKeys.listForAccount(accountId);
  const key = keys.find(
    (k) =>
      k.revokedAt === null &&
      new ScopeSet(k.scopes).allows('run.continue') &&
      ownerHashOf(apiKeyPrincipal(k), deps.config.instanceSecret) === ownerHash,
  );
  if (key === undefined)
    throw new HelixError(
      'insufficient_scope',
      { scope: 'helix.agent_runs.write' },
      'This run can be answered here only through an active API key of this account that started it and may continue runs; answer through the agent that started it.',
    );
  // The session already proved the account exists and is active, as authentication would for the key.
  return { ...apiKeyPrincipal(key), linkedAccount: true };
};
