import { deriveAnswerContract } from '../domain/answerContract/contract.js';
import { describe, expect, it } from 'vitest';
import { HelixError } from '../domain/errors.js';
import type { RunRecord } from '../domain/run.js';
import { scriptedArtifact } from '../solver/scriptedExecutor.js';
import { errorBody } from './errorBody.js';
import { projectEvidence } from './evidenceView.js';
import {
  ErrorBodySchema,
  EventViewSchema,
  EvidenceBundleSchema,
  RunListViewSchema,
  RunViewSchema,
} from './outputSchemas.js';
import { projectEvent, projectRun } from './runView.js';
import { projectRunList } from './runListView.js';

const run: RunRecord = {
  runId: 'run_schema0001',
  ownerHash: 'a'.repeat(64),
  tenantRef: 'tenant:sha256:t',
  accountRef: 'account:sha256:a',
  objective: 'o',
  answerContract: deriveAnswerContract('o'),
  objectiveHash: 'h',
  runtimeProvider: 'p',
  lifecycle: 'completed',
  completion: 'completed',
  terminalAuthority: 'authorized',
  version: 3,
  contract: {
    min_evidence_refs: 1,
    require_terminal_authority: true,
    required_output_fields: [],
    max_unresolved_requirements: 0,
    allow_conflicts: false,
  },
  constraints: ['c'],
  databaseScope: ['research_library'],
  budget: { max_steps: 12, expires_in_seconds: 3600 },
  stepsUsed: 1,
  expiresAt: 10_000,
  unresolvedRequirements: ['u'],
  contradictions: [{ contradiction_id: 'c1', description: 'd', refs: ['r'] }],
  pendingQuestions: [{ question_id: 'q', prompt: 'p?' }],
  answers: [],
  evidenceRefs: ['r'],
  supportedClaims: [{ claim: 'c', refs: ['r'] }],
  latestResult: {
    turn: 1,
    outcome: 'succeeded',
    text: 't',
    supporting_evidence_refs: ['r'],
    output_fields: { x: 1 },
    terminal_candidate_ref: 'cand',
    writer: 'helix.extractive',
    authority_reason: null,
    failure_code: null,
    failure_detail: null,
  },
  lastEventSeq: 5,
  activeTurn: null,
  createdAt: 0,
  updatedAt: 1,
  completedAt: 2,
  cancelledAt: null,
};

/** Every key a projection emits must be declared by its schema (the schemas are the published contract). */
const expectDeclared = (schema: { shape: Record<string, unknown> }, value: Record<string, unknown>) => {
  expect(Object.keys(value).sort()).toEqual(Object.keys(schema.shape).sort());
};

describe('output schemas match the projections', () => {
  it('run view', () => {
    const view = projectRun(run);
    expect(RunViewSchema.parse(view)).toEqual(view);
    const list = projectRunList([run], 'cursor');
    expect(RunListViewSchema.parse(list)).toEqual(list);
    expectDeclared(RunViewSchema, view);
    expect(RunViewSchema.safeParse(projectRun({ ...run, latestResult: null })).success).toBe(true);
  });

  it('event, evidence bundle and error body', () => {
    const event = projectEvent({ runId: run.runId, seq: 1, kind: 'run.started', version: 1, data: {}, createdAt: 0 });
    expect(EventViewSchema.parse(event)).toEqual(event);
    expectDeclared(EventViewSchema, event);
    const artifact = {
      ...scriptedArtifact('x', { capabilityId: 'c', family: 'f' }),
      runId: run.runId,
      turn: 1,
      createdAt: 0,
    };
    const bundle = projectEvidence(run, [artifact]);
    expect(EvidenceBundleSchema.parse(bundle)).toEqual(bundle);
    expectDeclared(EvidenceBundleSchema, bundle);
    const error = errorBody(new HelixError('version_conflict', { current_version: 4 }));
    expect(ErrorBodySchema.parse(error)).toEqual(error);
  });
});

describe('the evidence bundle splits admitted artifacts by what grounds the answer', () => {
  const admitted = (content: string, kind: 'evidence' | 'observation' | 'receipt' = 'evidence') => ({
    ...scriptedArtifact(content, { capabilityId: 'c', family: 'f', kind }),
    runId: run.runId,
    turn: 1,
    createdAt: 0,
  });
  const cited = admitted('cited');
  const uncited = admitted('uncited');
  const read = admitted('a document read', 'observation');
  const receipt = admitted('a receipt', 'receipt');

  it("evidence_refs are the run's evidence refs in its order; everything else read is an observation", () => {
    const bundle = projectEvidence({ ...run, evidenceRefs: [cited.ref] }, [uncited, read, cited, receipt]);
    expect(bundle).toMatchObject({
      evidence_refs: [cited.ref],
      observation_refs: [uncited.ref, read.ref],
      receipt_refs: [receipt.ref],
      terminal_candidate_writer: 'helix.extractive',
    });
  });

  it('a run state that listed an observation among its evidence (stored before this split) still shows it as one', () => {
    const bundle = projectEvidence({ ...run, evidenceRefs: [read.ref, cited.ref], latestResult: null }, [read, cited]);
    expect(bundle).toMatchObject({
      evidence_refs: [cited.ref],
      observation_refs: [read.ref],
      terminal_candidate_writer: null,
    });
  });
});
