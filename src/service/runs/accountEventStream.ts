import { loadAccountRun } from './accountRuns.js';
import type { RunServiceDeps } from './deps.js';
import { resumeSeqOf, runEventStream, type StreamItem } from './streamEvents.js';

/**
 * The console's live timeline: the same event stream as GET /api/v1/agent-runs/{run_id}/events/stream,
 * for one of the signed-in account's runs. Every check runs before the first byte.
 */
export const openAccountEventStream = async (
  deps: RunServiceDeps,
  accountId: string,
  runId: string,
  query: unknown,
  lastEventId: string | undefined,
): Promise<(signal: AbortSignal) => AsyncGenerator<StreamItem>> => {
  const afterSeq = resumeSeqOf(query, lastEventId);
  await loadAccountRun(deps, accountId, runId);
  return runEventStream(deps, runId, afterSeq);
};
