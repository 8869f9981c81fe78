import { afterEach, describe, expect, it } from 'vitest';
import type { StartRunBody } from '../src/client/contract.js';
import { HelixRestClient } from '../src/client/restClient.js';
import { emptyOutcome, type TurnOutcome } from '../src/domain/turn.js';
import type { TurnInput } from '../src/solver/executor.js';
import { ScriptedExecutor, scriptedArtifact, scriptedCandidate } from '../src/solver/scriptedExecutor.js';
import { groundedTurn, LIBRARY, LIBRARY_SCOPES } from './support/groundedTurn.js';
import { api, gate, idemKey, manualClock, startTestHelix, waitFor, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';

describe.each(storeFlavours())('versioned turns on $name', (flavour) => {
  let h: TestHelix | undefined;
  const boot = async (
    steps: ConstructorParameters<typeof ScriptedExecutor>[0],
    fallback?: ConstructorParameters<typeof ScriptedExecutor>[1],
    extra: { env?: Record<string, string>; clock?: { now(): number } } = {},
  ) => {
    const executor = new ScriptedExecutor(steps, fallback);
    h = await startTestHelix(flavour, {
      executor,
      env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library', ...extra.env },
      ...(extra.clock ? { clock: extra.clock } : {}),
    });
    return { h, executor, token: await h.key(LIBRARY_SCOPES) };
  };
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const startRun = (url: string, token: string, body: Partial<StartRunBody> = {}) =>
    new HelixRestClient(url, token).start({
      objective: 'How does the mechanism work?',
      database_scope: ['research_library'],
      ...body,
    });
  const cont = (url: string, token: string, runId: string, body: Record<string, unknown>, key = idemKey()) =>
    api(url, 'POST', `${RUNS}/${runId}/continue`, { token, idempotencyKey: key, body });

  it('a grounded turn completes: authorized, evidence persisted with provenance, completed events', async () => {
    const { h, token, executor } = await boot([groundedTurn()]);
    const run = await startRun(h.url, token, { constraints: ['Return source-level provenance'] });
    const res = await cont(h.url, token, run.run_id, { expected_version: 1, instruction: 'Find the mechanism' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      version: 3,
      lifecycle_status: 'completed',
      completion_status: 'completed',
      terminal_authority_status: 'authorized',
      recommended_next_action: 'stop',
      latest_result: { text: 'The mechanism works as both passages describe.', outcome: 'succeeded' },
      answer_authority: false,
    });
    expect(res.body.completed_at).not.toBeNull();
    expect(executor.inputs[0]).toMatchObject({
      objective: 'How does the mechanism work?',
      instruction: 'Find the mechanism',
      turn: 1,
    });
    expect([...executor.inputs[0]!.admittedCapabilities]).toContain('research-library.search');
    const evidence = await api(h.url, 'GET', `${RUNS}/${run.run_id}/evidence`, { token });
    expect(evidence.body.evidence_refs).toHaveLength(2);
    expect(res.body.latest_result.writer).toBe('helix.scripted');
    expect(evidence.body.terminal_candidate_writer).toBe('helix.scripted');
    expect(evidence.body.artifacts[0]).toMatchObject({
      capability_id: 'research-library.search',
      evidence_family: 'research_library_evidence',
      turn: 1,
    });
    expect(evidence.body.artifacts[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(evidence.body.supported_claims).toHaveLength(1);
    expect(evidence.body.terminal_authority_status).toBe('authorized');
    const kinds = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/events`, { token })).body.events.map(
      (e: { kind: string }) => e.kind,
    );
    expect(kinds).toEqual([
      'run.started',
      'run.continuation_received',
      'run.evidence_reentered',
      'run.terminal_authority_evaluated',
      'run.completed',
    ]);
    const after = await cont(h.url, token, run.run_id, { expected_version: 3, instruction: 'more' });
    expect(after.status).toBe(409);
    expect(after.body.code).toBe('run_not_active');
  });

  it('a candidate citing refs it did not retrieve this turn is stripped, not authorized', async () => {
    const forged = groundedTurn();
    const { h, token } = await boot([
      { ...forged, terminalCandidates: [scriptedCandidate('Made up', ['artifact:sha256:never-retrieved'])] },
    ]);
    const run = await startRun(h.url, token);
    const res = await cont(h.url, token, run.run_id, { expected_version: 1, instruction: 'go' });
    expect(res.body).toMatchObject({
      completion_status: 'needs_more_evidence',
      terminal_authority_status: 'not_authorized',
      latest_result: { text: null, output_fields: {} },
    });
  });

  it('hard gate: a required family satisfied only by an earlier turn does not authorize', async () => {
    const first = groundedTurn();
    const earlierRefs = first.artifacts.map((a) => a.ref);
    const { h, token } = await boot([
      { ...first, terminalCandidates: [] },
      // Turn 2 claims the family and cites turn 1's passages, but re-enters nothing of its own.
      emptyOutcome({
        satisfiedFamilies: [LIBRARY.family],
        resolvedRequirements: ['required_evidence:research_library_evidence'],
        terminalCandidates: [scriptedCandidate('From memory', earlierRefs)],
      }),
    ]);
    const run = await startRun(h.url, token);
    const one = await cont(h.url, token, run.run_id, { expected_version: 1, instruction: 'gather' });
    // Nothing was authorized in turn 1, so its passages were read (observations) but ground nothing.
    expect(one.body.evidence.count).toBe(0);
    const read = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/evidence`, { token })).body;
    expect(read.evidence_refs).toEqual([]);
    expect([...read.observation_refs].sort()).toEqual([...earlierRefs].sort());
    // Claims no authorized answer backs are not reported as supported.
    expect(read.supported_claims).toEqual([]);
    const two = await cont(h.url, token, run.run_id, { expected_version: 3, instruction: 'conclude' });
    expect(two.body).toMatchObject({
      terminal_authority_status: 'not_authorized',
      completion_status: 'needs_more_evidence',
      latest_result: { text: null },
    });
    expect(two.body.unresolved_requirements).toContain('required_evidence:research_library_evidence');
  });

  it('artifacts from a capability the run did not admit are rejected at re-entry', async () => {
    const foreign = scriptedArtifact('a web page', {
      capabilityId: 'internet-search.search_web',
      family: LIBRARY.family,
    });
    const { h, token } = await boot([
      emptyOutcome({
        artifacts: [foreign],
        satisfiedFamilies: [LIBRARY.family],
        terminalCandidates: [scriptedCandidate('Per the web', [foreign.ref])],
      }),
    ]);
    const run = await startRun(h.url, token);
    const res = await cont(h.url, token, run.run_id, { expected_version: 1, instruction: 'go' });
    expect(res.body).toMatchObject({ terminal_authority_status: 'not_authorized', evidence: { count: 0 } });
    const events = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/events`, { token })).body.events;
    expect(events.find((e: { kind: string }) => e.kind === 'run.evidence_reentered').data).toMatchObject({
      admitted_refs: [],
      rejected_refs: [foreign.ref],
    });
    expect((await api(h.url, 'GET', `${RUNS}/${run.run_id}/evidence`, { token })).body.artifacts).toEqual([]);
  });

  it('a stale expected_version is version_conflict with current_version', async () => {
    const { h, token } = await boot([], emptyOutcome());
    const run = await startRun(h.url, token);
    const res = await cont(h.url, token, run.run_id, { expected_version: 2, instruction: 'x' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'version_conflict', current_version: 1, adr_code: -32011 });
  });

  it('50 concurrent continues with one expected_version: exactly one turn runs', async () => {
    const { h, token, executor } = await boot([], async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return emptyOutcome();
    });
    const run = await startRun(h.url, token);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => cont(h.url, token, run.run_id, { expected_version: 1, instruction: 'race' })),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expect(loser.status).toBe(409);
      expect(['version_conflict', 'run_busy']).toContain(loser.body.code);
    }
    expect(executor.inputs).toHaveLength(1);
    const events = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/events?limit=200`, { token })).body.events;
    expect(events.filter((e: { kind: string }) => e.kind === 'run.continuation_received')).toHaveLength(1);
    expect(events.map((e: { seq: number }) => e.seq)).toEqual(events.map((_: unknown, i: number) => i + 1));
  });

  it('a cancel during a slow turn wins: the late result is discarded and the turn was signalled', async () => {
    const g = gate();
    let signalled = false;
    const { h, token } = await boot([
      async (input: TurnInput) => {
        input.signal.addEventListener('abort', () => (signalled = true));
        await g.opened;
        return groundedTurn();
      },
    ]);
    const run = await startRun(h.url, token);
    const turn = cont(h.url, token, run.run_id, { expected_version: 1, instruction: 'slow' });
    await waitFor(
      async () => (await api(h.url, 'GET', `${RUNS}/${run.run_id}`, { token })).body.lifecycle_status === 'running',
    );
    const cancel = await api(h.url, 'POST', `${RUNS}/${run.run_id}/cancel`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 2, reason: 'no longer needed' },
    });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ lifecycle_status: 'cancelled', completion_status: 'cancelled', version: 3 });
    expect(signalled).toBe(true);
    g.release();
    const late = await turn;
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'run_cancelled', current_version: 3 });
    const final = await api(h.url, 'GET', `${RUNS}/${run.run_id}`, { token });
    expect(final.body).toMatchObject({
      lifecycle_status: 'cancelled',
      version: 3,
      terminal_authority_status: 'not_evaluated',
      latest_result: null,
    });
    const evidence = await api(h.url, 'GET', `${RUNS}/${run.run_id}/evidence`, { token });
    expect(evidence.body.evidence_refs).toEqual([]);
    const again = await cont(h.url, token, run.run_id, { expected_version: 3, instruction: 'after cancel' });
    expect(again.body.code).toBe('run_not_active');
  });

  it('asks a question, then accepts an answer to it exactly once', async () => {
    const question = { question_id: 'request_2019_calibration_scope', prompt: 'Include the 2019 calibration?' };
    const { h, token, executor } = await boot([emptyOutcome({ questions: [question] }), groundedTurn()]);
    const run = await startRun(h.url, token);
    const asked = await cont(h.url, token, run.run_id, { expected_version: 1, instruction: 'start' });
    expect(asked.body).toMatchObject({
      completion_status: 'needs_input',
      pending_questions: [question],
      recommended_next_action: 'answer_pending_questions',
    });
    for (const answers of [
      [{ question_id: 'unknown_question', value: true }],
      [
        { question_id: question.question_id, value: 1 },
        { question_id: question.question_id, value: 2 },
      ],
    ]) {
      const bad = await cont(h.url, token, run.run_id, { expected_version: 3, answers });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('invalid_answer');
    }
    const answered = await cont(h.url, token, run.run_id, {
      expected_version: 3,
      answers: [{ question_id: question.question_id, value: { include: false } }],
    });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toMatchObject({ completion_status: 'completed', pending_questions: [] });
    expect(executor.inputs[1]!.answers).toEqual([{ question_id: question.question_id, value: { include: false } }]);
    const kinds = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/events`, { token })).body.events.map(
      (e: { kind: string }) => e.kind,
    );
    expect(kinds).toContain('run.input_requested');
  });

  it('the step budget ends the run with budget_exhausted', async () => {
    const { h, token } = await boot([], emptyOutcome());
    const run = await startRun(h.url, token, { budget: { max_steps: 2 } });
    const first = await cont(h.url, token, run.run_id, { expected_version: 1, instruction: 'one' });
    expect(first.body.completion_status).toBe('needs_more_evidence');
    const second = await cont(h.url, token, run.run_id, { expected_version: 3, instruction: 'two' });
    expect(second.body).toMatchObject({
      lifecycle_status: 'failed',
      completion_status: 'budget_exhausted',
      budget: { steps_remaining: 0 },
      recommended_next_action: 'stop',
    });
    const third = await cont(h.url, token, run.run_id, { expected_version: 5, instruction: 'three' });
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({ code: 'budget_exhausted', adr_code: -32004 });
    const kinds = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/events`, { token })).body.events.map(
      (e: { kind: string }) => e.kind,
    );
    expect(kinds.at(-1)).toBe('run.budget_exhausted');
  });

  it('expiry ends the run on the next access', async () => {
    const clock = manualClock();
    const { h, token } = await boot([], emptyOutcome(), { clock });
    const run = await startRun(h.url, token, { budget: { expires_in_seconds: 60 } });
    clock.advance(61_000);
    const inspected = await api(h.url, 'GET', `${RUNS}/${run.run_id}`, { token });
    expect(inspected.body).toMatchObject({
      completion_status: 'budget_exhausted',
      lifecycle_status: 'failed',
      version: 2,
    });
    const res = await cont(h.url, token, run.run_id, { expected_version: 2, instruction: 'too late' });
    expect(res.body.code).toBe('budget_exhausted');
  });

  it('a turn past HELIX_AGENT_TURN_TIMEOUT_MS is aborted and reported as timed out; the run can go on', async () => {
    let aborted = false;
    const { h, token } = await boot(
      [
        (input: TurnInput) =>
          new Promise<TurnOutcome>((resolve) => {
            input.signal.addEventListener('abort', () => {
              aborted = true;
              resolve(groundedTurn());
            });
          }),
      ],
      emptyOutcome(),
      { env: { HELIX_AGENT_TURN_TIMEOUT_MS: '1000' } },
    );
    const run = await startRun(h.url, token);
    const res = await cont(h.url, token, run.run_id, { expected_version: 1, instruction: 'hang' });
    expect(res.status).toBe(200);
    expect(aborted).toBe(true);
    expect(res.body).toMatchObject({
      completion_status: 'blocked',
      lifecycle_status: 'waiting',
      latest_result: { outcome: 'timed_out', failure_code: 'turn_timeout', text: null },
    });
    const next = await cont(h.url, token, run.run_id, { expected_version: 3, instruction: 'again' });
    expect(next.status).toBe(200);
  });

  it('a reservation whose turn lease expired reports outcome_unknown and the run is recovered', async () => {
    const clock = manualClock();
    const g = gate();
    const { h, token } = await boot(
      [
        async () => {
          await g.opened;
          return groundedTurn();
        },
      ],
      undefined,
      { clock },
    );
    const run = await startRun(h.url, token);
    const key = idemKey('lost');
    const body = { expected_version: 1, instruction: 'will be lost' };
    const turn = cont(h.url, token, run.run_id, body, key);
    await waitFor(
      async () => (await api(h.url, 'GET', `${RUNS}/${run.run_id}`, { token })).body.lifecycle_status === 'running',
    );
    expect((await api(h.url, 'GET', `${RUNS}/${run.run_id}`, { token })).body).toMatchObject({
      completion_status: 'pending',
      recommended_next_action: 'wait_for_turn',
    });
    clock.advance(10 * 60_000);
    const retry = await cont(h.url, token, run.run_id, body, key);
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ code: 'outcome_unknown', run_id: run.run_id });
    const inspected = await api(h.url, 'GET', `${RUNS}/${run.run_id}`, { token });
    // The interrupted turn left no verdict: blocked, and the client may continue.
    expect(inspected.body).toMatchObject({
      lifecycle_status: 'waiting',
      completion_status: 'blocked',
      recommended_next_action: 'continue',
      version: 3,
    });
    g.release();
    const late = await turn;
    expect(late.body.code).toBe('outcome_unknown');
    const kinds = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/events`, { token })).body.events.map(
      (e: { kind: string }) => e.kind,
    );
    expect(kinds).toEqual(['run.started', 'run.continuation_received', 'run.recovered', 'run.blocked']);
    expect((await cont(h.url, token, run.run_id, body, key)).body.code).toBe('outcome_unknown');
  });
});
