import { projectEvidence, type EvidenceBundle } from '../../api/evidenceView.js';
import type { Principal } from '../../auth/principal.js';
import { loadOwnedRun, ownerOf, requireOperation, requireRunId } from './access.js';
import type { RunServiceDeps } from './deps.js';
import type { ServiceResult } from '../result.js';

/** GET /api/v1/agent-runs/{run_id}/evidence: the normalized evidence bundle. */
export const fetchEvidence = async (
  deps: RunServiceDeps,
  principal: Principal,
  runId: string,
): Promise<ServiceResult<EvidenceBundle>> => {
  requireOperation(principal, 'run.evidence');
  requireRunId(runId);
  const run = await loadOwnedRun(deps, runId, ownerOf(deps, principal));
  const artifacts = await deps.store.read.artifacts.listAdmitted(run.runId);
  return { status: 200, body: projectEvidence(run, artifacts), replayed: false };
};
