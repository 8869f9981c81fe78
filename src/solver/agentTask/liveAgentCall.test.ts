import { deriveAnswerContract } from '../../domain/answerContract/contract.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AGENT_TASK_ABANDONED, MAX_AGENT_RECEIPTS } from '../../domain/agentTask.js';
import { HelixError } from '../../domain/errors.js';
import { UsageMeter, type TurnOutcome } from '../../domain/turn.js';
import type { Capability, CapabilityResult } from '../../sources/capability.js';
import type { TurnInput } from '../executor.js';
import { scriptedArtifact } from '../scriptedExecutor.js';
import { LiveAgentCall } from './liveAgentCall.js';

const LOOKUP: Capability<{ q: string }> = {
  id: 'research-library.search',
  scope: 'research_library',
  family: 'research_library_evidence',
  kind: 'search',
  description: 'Search the library.',
  input: z.strictObject({ q: z.string() }),
  execute: async () => ({ artifacts: [], hits: [] }),
};
const TOOL = 'research-library__search';

/** A turn whose capability answers through `invoke`, so a test can hold a call in flight. */
const callWith = (invoke: (input: unknown) => Promise<CapabilityResult>, objective = 'What damps resonance?') => {
  const settled: TurnOutcome[] = [];
  const input: TurnInput = {
    runId: 'run_unit-test-0001',
    ownerHash: 'owner',
    turn: 1,
    objective,
    answerContract: deriveAnswerContract(objective),
    constraints: [],
    instruction: null,
    answers: [],
    databaseScope: ['research_library'],
    ownerModelProviders: false,
    admittedCapabilities: new Set([LOOKUP.id]),
    capabilities: { menu: [LOOKUP as Capability], invoke: (_id, args) => invoke(args) },
    previousResult: null,
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    usage: new UsageMeter(),
  };
  return { call: new LiveAgentCall('call_unit-test-0001', input, (o) => settled.push(o)), settled };
};

const codeOf = async (promise: Promise<unknown>): Promise<string | undefined> =>
  promise.then(
    () => undefined,
    (err: unknown) => (err instanceof HelixError ? err.code : String(err)),
  );

/** A valid final result that proposes nothing. */
const NOTHING_FOUND = {
  text: '',
  supporting_refs: [],
  output_fields: {},
  unresolved_requirements: [],
  contradictions: [],
  questions: [],
};

describe('LiveAgentCall', () => {
  it('runs tools serially: a second call while one is in flight conflicts, and so does a changed retry', async () => {
    let release: (r: CapabilityResult) => void = () => undefined;
    const { call } = callWith(() => new Promise((resolve) => (release = resolve)));
    const { ownerToken } = call.claimAs('claim-1');
    const first = call.callTool(ownerToken, 'tc-1', TOOL, { q: 'damping' });
    expect(await codeOf(call.callTool(ownerToken, 'tc-2', TOOL, { q: 'other' }))).toBe('agent_tool_call_conflict');
    // ATP-22: no completion while a tool is in flight.
    expect(() => call.complete(ownerToken, NOTHING_FOUND)).toThrow('A tool call is still in flight');
    release({
      artifacts: [scriptedArtifact('a passage', { capabilityId: LOOKUP.id, family: LOOKUP.family })],
      hits: [],
    });
    expect((await first).receipt.receiptNumber).toBe(1);
    expect(await codeOf(call.callTool(ownerToken, 'tc-1', TOOL, { q: 'changed' }))).toBe('agent_tool_call_conflict');
    expect((await call.callTool(ownerToken, 'tc-1', TOOL, { q: 'damping' })).replayed).toBe(true);
  });

  it('retains at most 256 receipts: the 257th call is refused, a retry of a retained one still answers', async () => {
    const { call } = callWith(async () => ({ artifacts: [], hits: [] }));
    const { ownerToken } = call.claimAs('claim-1');
    for (let n = 1; n <= MAX_AGENT_RECEIPTS; n += 1) await call.callTool(ownerToken, `tc-${n}`, TOOL, { q: `q${n}` });
    expect(await codeOf(call.callTool(ownerToken, 'tc-257', TOOL, { q: 'one more' }))).toBe(
      'agent_receipt_limit_reached',
    );
    expect((await call.callTool(ownerToken, 'tc-256', TOOL, { q: 'q256' })).receipt.receiptNumber).toBe(256);
  });

  it('reads declared assets in bounded chunks that never split a character', () => {
    const { call } = callWith(async () => ({ artifacts: [], hits: [] }), 'Ünïcödé résumé ✓ objective');
    const whole = call.readAsset('task.md', 0, 1024 * 1024);
    expect(whole.eof).toBe(true);
    const pieces: string[] = [];
    for (let offset = 0; offset < whole.totalBytes; ) {
      const chunk = call.readAsset('task.md', offset, 3);
      expect(chunk.nextOffset).toBeGreaterThan(offset);
      pieces.push(chunk.text);
      offset = chunk.nextOffset;
    }
    expect(pieces.join('')).toBe(whole.text);
    expect(() => call.readAsset('secrets.md', 0, 10)).toThrow('The task declares no asset with this id.');
  });

  it('owns nothing after a release; abandoning fails the turn without a fallback', () => {
    const { call, settled } = callWith(async () => ({ artifacts: [], hits: [] }));
    const { ownerToken } = call.claimAs('claim-1');
    expect(call.isOwnedBy(ownerToken)).toBe(true);
    call.release(ownerToken);
    expect(call.isOwnedBy(ownerToken)).toBe(false);
    expect(() => call.release(ownerToken)).toThrow(HelixError);
    const again = call.claimAs('claim-2');
    expect(() => call.abandon(ownerToken)).toThrow(HelixError);
    call.abandon(again.ownerToken);
    expect(call.isOwnedBy(again.ownerToken)).toBe(false);
    expect(settled).toMatchObject([{ status: 'failed', failureCode: AGENT_TASK_ABANDONED, terminalCandidates: [] }]);
  });

  it('acts once: an ended call refuses a second completion, a release, a tool call and a new claim', async () => {
    const { call, settled } = callWith(async () => ({ artifacts: [], hits: [] }));
    const { ownerToken } = call.claimAs('claim-1');
    const result = NOTHING_FOUND;
    call.complete(ownerToken, result);
    const refusal = (act: () => unknown) => {
      try {
        act();
        return 'acted';
      } catch (err) {
        return err instanceof HelixError ? err.code : String(err);
      }
    };
    expect(refusal(() => call.complete(ownerToken, result))).toBe('agent_call_not_found');
    expect(refusal(() => call.release(ownerToken))).toBe('agent_call_not_found');
    expect(refusal(() => call.abandon(ownerToken))).toBe('agent_call_not_found');
    expect(refusal(() => call.claimAs('claim-1'))).toBe('agent_call_not_found');
    expect(await codeOf(call.callTool(ownerToken, 'tc-1', TOOL, {}))).toBe('agent_call_not_found');
    expect(settled).toHaveLength(1);
  });
});
