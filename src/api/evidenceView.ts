import type { RunRecord } from '../domain/run.js';
import type { TurnArtifact } from '../domain/turn.js';
import { NON_AUTHORITY_FLAGS } from './flags.js';

/** An admitted artifact as the store keeps it: the artifact, the turn that admitted it, when. */
type AdmittedArtifact = TurnArtifact & { readonly turn: number; readonly createdAt: number };

export const EVIDENCE_SCHEMA = 'helix.agent_run.evidence_bundle.v1';

/**
 * How the bundle splits the admitted artifacts. `evidence_refs` are the run's evidence (with
 * terminal grounding required, what the authorized answer cites; see judgeTurn), in the run's
 * order, so the bundle and the run snapshot's `evidence` agree. Every other admitted artifact but a
 * receipt was read without grounding anything and is an observation, so a client sees what was read.
 */
const splitRefs = (run: RunRecord, artifacts: readonly AdmittedArtifact[]) => {
  const admittedEvidence = new Set(artifacts.filter((a) => a.kind === 'evidence').map((a) => a.ref));
  const evidence = run.evidenceRefs.filter((ref) => admittedEvidence.has(ref));
  const grounded = new Set(evidence);
  return {
    observation_refs: artifacts.filter((a) => a.kind !== 'receipt' && !grounded.has(a.ref)).map((a) => a.ref),
    evidence_refs: evidence,
    receipt_refs: artifacts.filter((a) => a.kind === 'receipt').map((a) => a.ref),
  };
};

/** The normalized `helix.agent_run.evidence_bundle.v1`: admitted artifacts with their provenance. */
export const projectEvidence = (run: RunRecord, artifacts: readonly AdmittedArtifact[]) => ({
  schema: EVIDENCE_SCHEMA,
  run_id: run.runId,
  version: run.version,
  ...splitRefs(run, artifacts),
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
  terminal_candidate_writer: run.latestResult?.writer ?? null,
  terminal_authority_status: run.terminalAuthority,
  ...NON_AUTHORITY_FLAGS,
});
export type EvidenceBundle = ReturnType<typeof projectEvidence>;
