import type { RunRecord } from '../domain/run.js';
import type { TurnArtifact } from '../domain/turn.js';
import { NON_AUTHORITY_FLAGS } from './flags.js';

/** An admitted artifact as the store keeps it: the artifact, the turn that admitted it, when. */
type AdmittedArtifact = TurnArtifact & { readonly turn: number; readonly createdAt: number };

export const EVIDENCE_SCHEMA = 'helix.agent_run.evidence_bundle.v1';

const refsOf = (artifacts: readonly AdmittedArtifact[], kind: AdmittedArtifact['kind']) =>
  artifacts.filter((a) => a.kind === kind).map((a) => a.ref);

/** The normalized `helix.agent_run.evidence_bundle.v1`: admitted artifacts with their provenance. */
export const projectEvidence = (run: RunRecord, artifacts: readonly AdmittedArtifact[]) => ({
  schema: EVIDENCE_SCHEMA,
  run_id: run.runId,
  version: run.version,
  observation_refs: refsOf(artifacts, 'observation'),
  evidence_refs: refsOf(artifacts, 'evidence'),
  receipt_refs: refsOf(artifacts, 'receipt'),
  artifacts: artifacts.map((a) => ({
    ref: a.ref,
    kind: a.kind,
    evidence_family: a.family,
    capability_id: a.capabilityId,
    sha256: a.sha256,
    turn: a.turn,
    title: a.title ?? null,
    excerpt: a.excerpt,
    provenance: a.provenance,
  })),
  supported_claims: run.supportedClaims,
  contradicted_claims: run.contradictions,
  unresolved_requirements: run.unresolvedRequirements,
  terminal_candidate_ref: run.latestResult?.terminal_candidate_ref ?? null,
  terminal_authority_status: run.terminalAuthority,
  ...NON_AUTHORITY_FLAGS,
});
export type EvidenceBundle = ReturnType<typeof projectEvidence>;
