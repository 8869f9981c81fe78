import { projectRun, type RunView } from '../../api/runView.js';
import type { Principal } from '../../auth/principal.js';
import { loadOwnedRun, ownerOf, requireOperation, requireRunId } from './access.js';
import type { RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';

/** GET /api/v1/agent-runs/{run_id}: the owner-scoped snapshot. */
export const inspectRun = async (
  deps: RunServiceDeps,
  principal: Principal,
  runId: string,
): Promise<ServiceResult<RunView>> => {
  requireOperation(principal, 'run.inspect');
  requireRunId(runId);
  const run = await loadOwnedRun(deps, runId, ownerOf(deps, principal));
  return { status: 200, body: projectRun(run), replayed: false };
};
