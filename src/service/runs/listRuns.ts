import { ListRunsQuerySchema } from '../../api/schemas.js';
import type { RunListView } from '../../api/runListView.js';
import type { Principal } from '../../auth/principal.js';
import { ownerOf, requireOperation } from './access.js';
import type { RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';
import { pageOfRuns } from './runListPage.js';
import { parseInput } from '../validate.js';

/**
 * GET /api/v1/agent-runs: the caller's own runs (its owner tuple, exactly as inspect scopes a run),
 * newest first, filtered by lifecycle status and objective text, paged by an owner-bound cursor.
 */
export const listRuns = async (
  deps: RunServiceDeps,
  principal: Principal,
  query: unknown,
): Promise<ServiceResult<RunListView>> => {
  requireOperation(principal, 'run.list');
  const filter = parseInput(ListRunsQuerySchema, query);
  const { ownerHash } = ownerOf(deps, principal);
  return { status: 200, body: await pageOfRuns(deps, ownerHash, [ownerHash], filter), replayed: false };
};
