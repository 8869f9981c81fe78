import type { RunListView } from '../../api/runListView.js';
import { ConsoleRunListQuerySchema } from '../../api/schemas.js';
import { parseInput } from '../validate.js';
import { ownersOfAccount } from './accountRuns.js';
import type { RunServiceDeps } from './deps.js';
import { pageOfRuns } from './runListPage.js';

const DAY_MS = 86_400_000;
const startOfDay = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/**
 * The console's run list: the signed-in account's runs (src/service/runs/accountRuns.ts), newest
 * first, searched like GET /api/v1/agent-runs and by the UTC days they were created in.
 */
export const listAccountRuns = async (
  deps: RunServiceDeps,
  accountId: string,
  query: unknown,
): Promise<RunListView> => {
  const { from, to, ...filter } = parseInput(ConsoleRunListQuerySchema, query);
  const { subjectKey, ownerHashes } = await ownersOfAccount(deps, accountId);
  return pageOfRuns(deps, subjectKey, ownerHashes, {
    ...filter,
    createdFrom: from === undefined ? undefined : startOfDay(from),
    createdBefore: to === undefined ? undefined : startOfDay(to) + DAY_MS,
  });
};
