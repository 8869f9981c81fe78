import { projectRunList, type RunListView } from '../../api/runListView.js';
import type { LifecycleStatus } from '../../domain/statuses.js';
import type { RunListQuery } from '../../store/port.js';
import type { RunServiceDeps } from './deps.js';
import { decodeRunCursor, encodeRunCursor } from './runCursor.js';

/** What a lister may filter a run list by; every field but the page size is optional. */
export interface RunListFilter {
  readonly status?: LifecycleStatus | undefined;
  readonly q?: string | undefined;
  readonly cursor?: string | undefined;
  readonly createdFrom?: number | undefined;
  readonly createdBefore?: number | undefined;
  readonly limit: number;
}

/**
 * One page of the listed owners' runs for a lister (an owner over REST, an account in the console),
 * newest first. One row past the page says whether another page exists; its cursor names the
 * page's last run and is bound to the lister (src/service/runs/runCursor.ts).
 */
export const pageOfRuns = async (
  deps: RunServiceDeps,
  lister: string,
  ownerHashes: readonly string[],
  filter: RunListFilter,
): Promise<RunListView> => {
  const secret = deps.config.instanceSecret;
  const query: RunListQuery = {
    ownerHashes,
    limit: filter.limit + 1,
    ...(filter.status === undefined ? {} : { lifecycle: filter.status }),
    ...(filter.q === undefined ? {} : { text: filter.q }),
    ...(filter.createdFrom === undefined ? {} : { createdFrom: filter.createdFrom }),
    ...(filter.createdBefore === undefined ? {} : { createdBefore: filter.createdBefore }),
    ...(filter.cursor === undefined ? {} : { after: decodeRunCursor(secret, lister, filter.cursor) }),
  };
  const rows = await deps.store.read.runs.listForOwners(query);
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  const next =
    rows.length > filter.limit && last !== undefined
      ? encodeRunCursor(secret, lister, { createdAt: last.createdAt, runId: last.runId })
      : null;
  return projectRunList(page, next);
};
