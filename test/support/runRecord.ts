import { deriveAnswerContract } from '../../src/domain/answerContract/contract.js';
import type { RunRecord } from '../../src/domain/run.js';

/** A fresh `waiting` run as the store holds it, for tests that need a run row without starting one. */
export const baseRun = (runId: string): RunRecord => ({
  runId,
  ownerHash: 'o'.repeat(64),
  tenantRef: 'tenant:sha256:x',
  accountRef: 'account:sha256:y',
  objective: 'Store test',
  answerContract: deriveAnswerContract('Store test'),
  objectiveHash: 'h'.repeat(64),
  runtimeProvider: 'test',
  lifecycle: 'waiting',
  completion: 'needs_more_evidence',
  terminalAuthority: 'not_evaluated',
  version: 1,
  contract: {
    min_evidence_refs: 1,
    require_terminal_authority: true,
    required_output_fields: [],
    max_unresolved_requirements: 0,
    allow_conflicts: false,
  },
  constraints: ['c'],
  databaseScope: [],
  budget: { max_steps: 12, expires_in_seconds: 3600 },
  stepsUsed: 0,
  expiresAt: 4_102_444_800_000, // 2100-01-01: exercises BIGINT round trips
  unresolvedRequirements: [],
  contradictions: [],
  pendingQuestions: [],
  answers: [],
  evidenceRefs: [],
  supportedClaims: [],
  latestResult: null,
  lastEventSeq: 0,
  activeTurn: null,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  completedAt: null,
  cancelledAt: null,
});
