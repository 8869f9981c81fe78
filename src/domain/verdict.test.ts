import { deriveAnswerContract } from './answerContract/contract.js';
import { describe, expect, it } from 'vitest';
import { scriptedArtifact, scriptedCandidate } from '../solver/scriptedExecutor.js';
import type { RunRecord } from './run.js';
import { emptyOutcome } from './turn.js';
import { judgeTurn, type TurnContext } from './verdict.js';

const LIB = { capabilityId: 'research-library.search', family: 'research_library_evidence' };
const run = (overrides: Partial<RunRecord> = {}): RunRecord => ({
  runId: 'run_verdict01',
  ownerHash: 'o',
  tenantRef: 't',
  accountRef: 'a',
  objective: 'o',
  answerContract: deriveAnswerContract(overrides.objective ?? 'o'),
  objectiveHash: 'h',
  runtimeProvider: 'p',
  lifecycle: 'running',
  completion: 'needs_more_evidence',
  terminalAuthority: 'not_evaluated',
  version: 2,
  contract: {
    min_evidence_refs: 1,
    require_terminal_authority: true,
    required_output_fields: [],
    max_unresolved_requirements: 0,
    allow_conflicts: false,
  },
  constraints: [],
  databaseScope: ['research_library'],
  budget: { max_steps: 12, expires_in_seconds: 3600 },
  stepsUsed: 1,
  expiresAt: 10_000,
  unresolvedRequirements: [],
  contradictions: [],
  pendingQuestions: [],
  answers: [],
  evidenceRefs: [],
  supportedClaims: [],
  latestResult: null,
  lastEventSeq: 2,
  activeTurn: null,
  createdAt: 0,
  updatedAt: 0,
  completedAt: null,
  cancelledAt: null,
  ...overrides,
});
const ctx: TurnContext = {
  turn: 1,
  admittedCapabilities: new Set([LIB.capabilityId]),
  requiredFamilies: [LIB.family],
  now: 1,
};
const grounded = () => {
  const e = scriptedArtifact('evidence', LIB);
  return emptyOutcome({
    artifacts: [e],
    satisfiedFamilies: [LIB.family],
    terminalCandidates: [scriptedCandidate('answer', [e.ref], { confidence: 'high' })],
  });
};

describe('judgeTurn', () => {
  it('completes a grounded turn and projects only authorized output', () => {
    const v = judgeTurn(run(), grounded(), ctx);
    expect(v).toMatchObject({
      completion: 'completed',
      lifecycle: 'completed',
      terminalAuthority: 'authorized',
      unresolvedRequirements: [],
    });
    expect(v.latestResult.output_fields).toEqual({ confidence: 'high' });
  });

  it('refuses a candidate the answer contract refuses, and records answer_not_found so the run broadens (issue 28)', () => {
    const passage = scriptedArtifact('The pool starts workers on demand.', LIB);
    const outcome = emptyOutcome({
      artifacts: [passage],
      satisfiedFamilies: [LIB.family],
      terminalCandidates: [scriptedCandidate('The pool starts workers on demand. [1]', [passage.ref])],
    });
    const v = judgeTurn(run({ objective: 'How many workers does the pool start?' }), outcome, ctx);
    expect(v).toMatchObject({
      completion: 'needs_more_evidence',
      terminalAuthority: 'not_authorized',
      unresolvedRequirements: ['answer_not_found'],
      latestResult: { text: null, authority_reason: 'answer_type_missing' },
    });
    expect(v.events.find((e) => e.kind === 'run.terminal_authority_evaluated')?.data).toMatchObject({
      reason: 'answer_type_missing',
      answer_contract: { reason: 'answer_type_missing', parts: [{ part: 0, on_focus: true, typed: false }] },
    });
  });

  it('rebuilds the required-evidence gate: a generic resolution cannot clear it', () => {
    const outcome = {
      ...grounded(),
      satisfiedFamilies: [],
      resolvedRequirements: ['required_evidence:research_library_evidence'],
    };
    const v = judgeTurn(run(), outcome, ctx);
    expect(v.unresolvedRequirements).toContain('required_evidence:research_library_evidence');
    expect(v.terminalAuthority).toBe('not_authorized');
    expect(v.latestResult.text).toBeNull();
    expect(v.completion).toBe('needs_more_evidence');
  });

  it('the hard gate holds even when the contract allows unresolved requirements', () => {
    const v = judgeTurn(
      run({ contract: { ...run().contract, max_unresolved_requirements: 5 } }),
      { ...grounded(), satisfiedFamilies: [] },
      ctx,
    );
    expect(v.completion).not.toBe('completed');
  });

  it('drops artifacts from capabilities that were not admitted', () => {
    const foreign = scriptedArtifact('foreign', { capabilityId: 'internet-search.search_web', family: LIB.family });
    const v = judgeTurn(
      run(),
      emptyOutcome({
        artifacts: [foreign],
        satisfiedFamilies: [LIB.family],
        terminalCandidates: [scriptedCandidate('x', [foreign.ref])],
      }),
      ctx,
    );
    expect(v.rejectedArtifactRefs).toEqual([foreign.ref]);
    expect(v.terminalAuthority).toBe('not_authorized');
  });

  it('respects min_evidence_refs, required output fields and the conflict policy', () => {
    expect(judgeTurn(run({ contract: { ...run().contract, min_evidence_refs: 2 } }), grounded(), ctx).completion).toBe(
      'needs_more_evidence',
    );
    expect(
      judgeTurn(run({ contract: { ...run().contract, required_output_fields: ['summary'] } }), grounded(), ctx)
        .completion,
    ).toBe('needs_more_evidence');
    expect(
      judgeTurn(
        run({
          contract: { ...run().contract, required_output_fields: ['text', 'supporting_evidence_refs', 'confidence'] },
        }),
        grounded(),
        ctx,
      ).completion,
    ).toBe('completed');
    const conflicted = { ...grounded(), contradictions: [{ contradiction_id: 'c1', description: 'A vs B', refs: [] }] };
    expect(judgeTurn(run(), conflicted, ctx).completion).toBe('conflict_detected');
    expect(judgeTurn(run({ contract: { ...run().contract, allow_conflicts: true } }), conflicted, ctx).completion).toBe(
      'completed',
    );
  });

  it('asks for input before anything else when questions are open, and exhausts the budget on the last step', () => {
    const asking = emptyOutcome({ questions: [{ question_id: 'q1', prompt: '?' }] });
    expect(judgeTurn(run(), asking, ctx).completion).toBe('needs_input');
    expect(judgeTurn(run({ stepsUsed: 12 }), asking, ctx)).toMatchObject({
      completion: 'budget_exhausted',
      lifecycle: 'failed',
    });
    expect(judgeTurn(run({ stepsUsed: 12 }), grounded(), ctx).completion).toBe('completed');
  });

  it("a failed turn's provider-stated detail is on latest_result and its closing event; a success has none", () => {
    const detail = {
      provider: 'codex-subscription',
      type: 'usage_limit_reached',
      code: null,
      message: 'The usage limit has been reached',
      http_status: 429,
    };
    const blocked = judgeTurn(
      run(),
      emptyOutcome({ status: 'failed', failureCode: 'model_rate_limited', failureDetail: detail }),
      ctx,
    );
    expect(blocked.latestResult).toMatchObject({ failure_code: 'model_rate_limited', failure_detail: detail });
    expect(blocked.events.at(-1)).toEqual({
      kind: 'run.blocked',
      data: { turn: 1, failure_code: 'model_rate_limited', failure_detail: detail },
    });
    const failed = judgeTurn(
      run(),
      emptyOutcome({ status: 'failed', failureCode: 'model_quota', failureDetail: detail }),
      ctx,
    );
    expect(failed.events.at(-1)).toMatchObject({ kind: 'run.failed', data: { failure_detail: detail } });
    // Only a failed outcome carries one, whatever an executor left on a succeeded one.
    expect(judgeTurn(run(), { ...grounded(), failureDetail: detail }, ctx).latestResult.failure_detail).toBeNull();
    expect(judgeTurn(run(), emptyOutcome({ status: 'failed' }), ctx).latestResult.failure_detail).toBeNull();
  });

  it('without a required authority, no candidate is not_required', () => {
    const v = judgeTurn(
      run({
        contract: { ...run().contract, require_terminal_authority: false, min_evidence_refs: 0 },
        databaseScope: [],
      }),
      emptyOutcome(),
      { ...ctx, requiredFamilies: [] },
    );
    expect(v).toMatchObject({ terminalAuthority: 'not_required', completion: 'completed' });
  });

  describe('projection (docs/spec/helix-agent-api-v1.md, Evidence and terminal authority)', () => {
    const cited = scriptedArtifact('cited passage', LIB);
    const uncited = scriptedArtifact('uncited passage', LIB);
    const read = scriptedArtifact('a document read', { ...LIB, kind: 'observation' });
    const turnOf = (candidates = [scriptedCandidate('answer', [cited.ref], {}, 'helix.extractive')]) =>
      emptyOutcome({
        artifacts: [cited, uncited, read],
        satisfiedFamilies: [LIB.family],
        terminalCandidates: candidates,
      });

    it('grounding required: evidence is the authorized citations; everything admitted is kept; the writer is recorded', () => {
      const v = judgeTurn(run({ evidenceRefs: ['artifact:earlier'] }), turnOf(), ctx);
      expect(v.terminalAuthority).toBe('authorized');
      expect(v.projectedArtifacts.map((a) => a.ref)).toEqual([cited.ref]);
      expect(v.admittedArtifacts.map((a) => a.ref)).toEqual([cited.ref, uncited.ref, read.ref]);
      // An earlier answer's citations ground nothing now.
      expect(v.evidenceRefs).toEqual([cited.ref]);
      expect(v.latestResult.writer).toBe('helix.extractive');
    });

    it('grounding required and nothing authorized: no evidence, the writer of the refused candidate is still named', () => {
      const none = judgeTurn(run({ evidenceRefs: ['artifact:earlier'] }), turnOf([]), ctx);
      expect(none).toMatchObject({ terminalAuthority: 'not_evaluated', projectedArtifacts: [], evidenceRefs: [] });
      expect(none.latestResult.writer).toBeNull();
      expect(none.admittedArtifacts).toHaveLength(3);
      const refused = judgeTurn(
        run(),
        turnOf([scriptedCandidate('answer', ['artifact:unknown'], {}, 'helix.model')]),
        ctx,
      );
      expect(refused).toMatchObject({ terminalAuthority: 'not_authorized', evidenceRefs: [] });
      expect(refused.latestResult).toMatchObject({ writer: 'helix.model', text: null });
    });

    it('grounding not required: every admitted evidence artifact is projected and accumulates over turns', () => {
      const free = run({
        contract: { ...run().contract, require_terminal_authority: false },
        evidenceRefs: ['artifact:earlier'],
      });
      const v = judgeTurn(free, turnOf(), ctx);
      expect(v.projectedArtifacts).toHaveLength(3);
      expect(v.evidenceRefs).toEqual(['artifact:earlier', cited.ref, uncited.ref]);
    });

    it('min_evidence_refs still counts the cited evidence only', () => {
      const two = run({ contract: { ...run().contract, min_evidence_refs: 2 } });
      expect(judgeTurn(two, turnOf(), ctx).completion).toBe('needs_more_evidence');
      const both = turnOf([scriptedCandidate('answer', [cited.ref, uncited.ref])]);
      expect(judgeTurn(two, both, ctx).completion).toBe('completed');
    });
  });
});
