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
});
