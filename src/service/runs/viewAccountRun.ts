import { projectEvidence, type EvidenceBundle } from '../../api/evidenceView.js';
import { projectEvent, projectRun, type EventView, type RunView } from '../../api/runView.js';
import { loadAccountRun } from './accountRuns.js';
import type { RunServiceDeps } from './deps.js';

/** The timeline shows at most this many of the latest events; the live stream adds newer ones. */
export const TIMELINE_MAX = 500;

export interface AccountRunView {
  readonly run: RunView;
  readonly events: readonly EventView[];
  readonly evidence: EvidenceBundle;
}

/** The console's run page: the snapshot, the latest events and the evidence bundle of one of the account's runs. */
export const viewAccountRun = async (
  deps: RunServiceDeps,
  accountId: string,
  runId: string,
): Promise<AccountRunView> => {
  const run = await loadAccountRun(deps, accountId, runId);
  const [events, artifacts] = await Promise.all([
    deps.store.read.events.list(run.runId, Math.max(0, run.lastEventSeq - TIMELINE_MAX), TIMELINE_MAX),
    deps.store.read.artifacts.listAdmitted(run.runId),
  ]);
  return { run: projectRun(run), events: events.map(projectEvent), evidence: projectEvidence(run, artifacts) };
};
