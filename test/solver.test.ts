import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyOutcome } from '../src/domain/turn.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { ingestPaths } from '../src/sources/library/ingest.js';
import { api, gate, idemKey, startTestHelix, waitFor, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const SCOPES = 'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read';

/** A small library the tests write themselves: one clear topic, two sources that disagree. */
const writeLibrary = (dir: string): void => {
  writeFileSync(
    join(dir, 'damping.md'),
    '# Resonance damping\n\nThe resonance damping mechanism reduces vibration amplitude by absorbing energy in a viscoelastic layer bonded to the panel.\n\nDamping is strongest near the first bending mode of the panel.\n',
  );
  writeFileSync(
    join(dir, 'calibration-a.txt'),
    'Sensor calibration notes\n\nThe calibration drift of the sensor array in 2019 was 0.4 percent after the thermal cycle.\n',
  );
  writeFileSync(
    join(dir, 'calibration-b.html'),
    '<html><head><title>Calibration audit</title></head><body><h1>Audit</h1><p>The calibration drift of the sensor array in 2019 was 1.2 percent after the thermal cycle.</p></body></html>',
  );
  // A reference page of settings: each label ends where its neighbour's description begins.
  writeFileSync(
    join(dir, 'collector.html'),
    '<html><head><title>Collector settings</title></head><body><h1>Collector settings</h1><h2>Settings</h2><dl>' +
      '<dt>collector.interval</dt><dd><p>How often the collector samples its inputs.</p><p>The default value is 30 seconds.</p></dd>' +
      '<dt>collector.batchSize</dt><dd><p>How many samples the collector sends at once.</p><p>The default value is 500.</p></dd>' +
      '<dt>collector.retries</dt><dd><p>How often the collector retries a failed send.</p></dd>' +
      '</dl></body></html>',
  );
};

describe.each(storeFlavours())('governed extractive turns on $name', (flavour) => {
  let h: TestHelix;
  let token: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'helix-library-'));
    writeLibrary(dir);
    h = await startTestHelix(flavour, { env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library' } });
    const report = await ingestPaths(h.testStore.store, [dir], Date.now);
    expect(report).toMatchObject({ added: 4, failed: 0 });
    token = await h.key(SCOPES);
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (objective: string, extra: Record<string, unknown> = {}) => {
    const res = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: { objective, database_scope: ['research_library'], ...extra },
    });
    expect(res.status, res.text).toBe(201);
    return res.body as { run_id: string; version: number };
  };
  const turn = async (runId: string, body: Record<string, unknown>, bearer = token) =>
    api(h.url, 'POST', `${RUNS}/${runId}/continue`, { token: bearer, idempotencyKey: idemKey(), body });

  it("completed: an authorized extractive answer citing this turn's passages, with provenance", async () => {
    const run = await start('How does the resonance damping mechanism reduce vibration?');
    const res = await turn(run.run_id, { expected_version: 1, instruction: 'Answer with citations.' });
    expect(res.body).toMatchObject({
      completion_status: 'completed',
      terminal_authority_status: 'authorized',
      lifecycle_status: 'completed',
    });
    expect(res.body.latest_result.text).toContain('viscoelastic layer');
    expect(res.body.latest_result.text).toMatch(/\[1\]/);
    const sources = res.body.latest_result.output_fields.sources;
    expect(sources[0]).toMatchObject({ n: 1, title: 'Resonance damping' });
    expect(sources[0].locator).toMatch(/damping\.md$/);
    const bundle = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/evidence`, { token })).body;
    const cited = bundle.artifacts.find(
      (a: { ref: string }) => a.ref === res.body.latest_result.supporting_evidence_refs[0],
    );
    expect(cited).toMatchObject({
      capability_id: 'research-library.search',
      evidence_family: 'research_library_evidence',
      turn: 1,
    });
    expect(cited.provenance.span.end).toBeGreaterThan(cited.provenance.span.start);
    expect(cited.excerpt).toContain('viscoelastic');
    expect(bundle.supported_claims.length).toBeGreaterThan(0);
  });

  const bundleOf = async (runId: string) => (await api(h.url, 'GET', `${RUNS}/${runId}/evidence`, { token })).body;
  const refsOf = (bundle: { artifacts: { ref: string }[] }) => bundle.artifacts.map((a) => a.ref);

  it('projection: evidence_refs are exactly what the authorized answer cites, the other passages read are observations, and the writer is named', async () => {
    const run = await start('What is the default value of collector.batchSize?');
    const res = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
    expect(res.body).toMatchObject({ completion_status: 'completed', latest_result: { writer: 'helix.extractive' } });
    const cited = res.body.latest_result.supporting_evidence_refs;
    const bundle = await bundleOf(run.run_id);
    expect(bundle.evidence_refs).toEqual(cited);
    expect(bundle.terminal_candidate_writer).toBe('helix.extractive');
    // Everything the turn admitted but did not cite is still listed, as an observation.
    expect(bundle.observation_refs.length).toBeGreaterThan(0);
    expect([...bundle.observation_refs, ...bundle.evidence_refs].sort()).toEqual(refsOf(bundle).sort());
    expect(bundle.observation_refs.filter((ref: string) => cited.includes(ref))).toEqual([]);
    // The run snapshot counts the same evidence as the bundle.
    expect(res.body.evidence).toEqual({ count: cited.length, refs: cited, truncated: false });
    expect(res.body.summary.evidence_ref_count).toBe(cited.length);
  });

  it('projection: a declined answer grounds nothing, so every passage read is an observation', async () => {
    const run = await start('What is the default value of collector.timeout?');
    const res = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
    expect(res.body).toMatchObject({
      completion_status: 'needs_more_evidence',
      latest_result: { text: null, writer: null },
      evidence: { count: 0, refs: [] },
    });
    const bundle = await bundleOf(run.run_id);
    expect(bundle).toMatchObject({ evidence_refs: [], terminal_candidate_writer: null });
    expect(bundle.observation_refs.length).toBeGreaterThan(0);
    expect(bundle.observation_refs).toEqual(refsOf(bundle));
  });

  it('projection: without required terminal authority every admitted passage is evidence, as before', async () => {
    const run = await start('What is the default value of collector.batchSize?', {
      completion_contract: { require_terminal_authority: false },
    });
    const res = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
    expect(res.body.completion_status).toBe('completed');
    const bundle = await bundleOf(run.run_id);
    expect(bundle.observation_refs).toEqual([]);
    expect(bundle.evidence_refs.length).toBeGreaterThan(res.body.latest_result.supporting_evidence_refs.length);
    expect([...bundle.evidence_refs].sort()).toEqual(refsOf(bundle).sort());
    expect(res.body.evidence.count).toBe(bundle.evidence_refs.length);
  });

  it('needs_more_evidence: a topic the library does not hold gets no made-up completion', async () => {
    const run = await start('What is the boiling point of liquid nitrogen?');
    const res = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
    expect(res.body).toMatchObject({
      completion_status: 'needs_more_evidence',
      terminal_authority_status: 'not_evaluated',
      latest_result: { text: null },
    });
    expect(res.body.unresolved_requirements).toEqual(
      expect.arrayContaining(['no_relevant_evidence', 'required_evidence:research_library_evidence']),
    );
    // Another turn over the same sources would end the same way.
    expect(res.body.recommended_next_action).toBe('broaden_scope');
    expect((await api(h.url, 'GET', `${RUNS}/${run.run_id}/evidence`, { token })).body.evidence_refs).toEqual([]);
  });

  it('a setting is answered from its own entry, never from its neighbour', async () => {
    const run = await start('What is the default value of collector.batchSize?');
    const res = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
    expect(res.body).toMatchObject({ completion_status: 'completed', terminal_authority_status: 'authorized' });
    expect(res.body.latest_result.text).toMatch(/^The default value is 500\. \[1\]/);
    expect(res.body.latest_result.text).not.toContain('30 seconds');
  });

  it('answer_not_found: an unknown setting, or a setting without the asked attribute, is declined and the run says broaden_scope', async () => {
    for (const objective of [
      'What is the default value of collector.timeout?',
      'What is the default value of collector.retries?',
    ]) {
      const run = await start(objective);
      const res = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
      expect(res.status, res.text).toBe(200);
      expect(res.body, objective).toMatchObject({
        completion_status: 'needs_more_evidence',
        terminal_authority_status: 'not_evaluated',
        latest_result: { text: null },
        recommended_next_action: 'broaden_scope',
      });
      expect(res.body.unresolved_requirements).toContain('answer_not_found');
    }
  });

  it('needs_input: disagreeing sources raise a question; answering it completes on the chosen source', async () => {
    const run = await start('What was the calibration drift of the sensor array in 2019?');
    const asked = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
    expect(asked.body.completion_status).toBe('needs_input');
    expect(asked.body.contradictions).toHaveLength(1);
    expect(asked.body.contradictions[0].description).toMatch(/0\.4 percent.*1\.2 percent|1\.2 percent.*0\.4 percent/);
    const [question] = asked.body.pending_questions;
    expect(question.question_id).toMatch(/^resolve_conflict_/);
    expect(asked.body.latest_result.text).toBeNull();
    const side1 = question.prompt.indexOf('0.4 percent') < question.prompt.indexOf('1.2 percent') ? '0.4' : '1.2';
    const done = await turn(run.run_id, {
      expected_version: asked.body.version,
      answers: [{ question_id: question.question_id, value: '1' }],
    });
    expect(done.body).toMatchObject({
      completion_status: 'completed',
      terminal_authority_status: 'authorized',
      contradictions: [],
      pending_questions: [],
    });
    expect(done.body.latest_result.text).toContain(`${side1} percent`);
    expect(done.body.latest_result.text).not.toContain(`${side1 === '0.4' ? '1.2' : '0.4'} percent`);
  });

  it('conflict_detected: when the user will not choose, the contradiction stands and the run does not complete', async () => {
    const run = await start('What was the calibration drift of the sensor array in 2019?');
    const asked = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
    const [question] = asked.body.pending_questions;
    const res = await turn(run.run_id, {
      expected_version: asked.body.version,
      answers: [{ question_id: question.question_id, value: 'none' }],
    });
    expect(res.body).toMatchObject({
      completion_status: 'conflict_detected',
      lifecycle_status: 'waiting',
      pending_questions: [],
    });
    expect(res.body.contradictions).toHaveLength(1);
    const bundle = (await api(h.url, 'GET', `${RUNS}/${run.run_id}/evidence`, { token })).body;
    expect(bundle.contradicted_claims).toHaveLength(1);
  });

  it('conflicts are acceptable when the contract allows them', async () => {
    const run = await start('What was the calibration drift of the sensor array in 2019?', {
      completion_contract: { allow_conflicts: true },
    });
    const asked = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
    const res = await turn(run.run_id, {
      expected_version: asked.body.version,
      answers: [{ question_id: asked.body.pending_questions[0].question_id, value: 'none' }],
    });
    expect(res.body).toMatchObject({ completion_status: 'completed', terminal_authority_status: 'authorized' });
  });

  it('budget_exhausted: the last step ends the run without an answer', async () => {
    const run = await start('What is the boiling point of liquid nitrogen?', { budget: { max_steps: 1 } });
    const res = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' });
    expect(res.body).toMatchObject({
      completion_status: 'budget_exhausted',
      lifecycle_status: 'failed',
      recommended_next_action: 'stop',
    });
  });

  it('a data scope the caller no longer holds is refused on the next continue', async () => {
    const run = await start('How does the resonance damping mechanism reduce vibration?');
    const withoutData = await h.key('helix.agent_runs.read helix.agent_runs.write');
    const res = await turn(run.run_id, { expected_version: 1, instruction: 'Answer.' }, withoutData);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', scope: 'helix.data.research_library.read' });
    expect((await api(h.url, 'GET', `${RUNS}/${run.run_id}`, { token })).body.version).toBe(1);
  });

  it('scopes that are not enabled, not in the catalog, or not configured here are refused at start', async () => {
    for (const [scope, code] of [
      ['public_web', 'scope_not_admitted'],
      ['alchemy', 'scope_not_admitted'],
    ] as const) {
      const res = await api(h.url, 'POST', RUNS, {
        token,
        idempotencyKey: idemKey(),
        body: { objective: 'x', database_scope: [scope] },
      });
      expect(res.status, scope).toBe(403);
      expect(res.body).toMatchObject({ code, scope });
    }
  });
});

describe('scope availability', () => {
  it('an enabled scope whose sources are not configured is scope_unavailable, not a crash', async () => {
    const [flavour] = storeFlavours();
    const h = await startTestHelix(flavour!, { env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library,public_web' } });
    try {
      const token = await h.key('helix.agent_runs.write helix.data.public_web.read');
      const res = await api(h.url, 'POST', RUNS, {
        token,
        idempotencyKey: idemKey(),
        body: { objective: 'x', database_scope: ['public_web'] },
      });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'scope_unavailable', scope: 'public_web', adr_code: -32002 });
    } finally {
      await h.close();
    }
  });
});

describe('artifacts are recorded as the turn retrieves them', () => {
  it('a turn cancelled after retrieving leaves its retrievals on record but admits nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'helix-library-'));
    writeLibrary(dir);
    const g = gate();
    const executor = new ScriptedExecutor([
      async (input) => {
        await input.capabilities.invoke('research-library.search', { query: 'resonance damping vibration' });
        await g.opened;
        return emptyOutcome();
      },
    ]);
    const h = await startTestHelix(storeFlavours()[0]!, {
      executor,
      env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library' },
    });
    try {
      await ingestPaths(h.testStore.store, [dir], Date.now);
      const token = await h.key(SCOPES);
      const started = await api(h.url, 'POST', RUNS, {
        token,
        idempotencyKey: idemKey(),
        body: { objective: 'damping', database_scope: ['research_library'] },
      });
      const runId = started.body.run_id;
      const turn = api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
        token,
        idempotencyKey: idemKey(),
        body: { expected_version: 1, instruction: 'go' },
      });
      await waitFor(async () => (await h.testStore.store.read.artifacts.listRecorded(runId)).length > 0);
      await api(h.url, 'POST', `${RUNS}/${runId}/cancel`, {
        token,
        idempotencyKey: idemKey(),
        body: { expected_version: 2 },
      });
      g.release();
      expect((await turn).body.code).toBe('run_cancelled');
      const recorded = await h.testStore.store.read.artifacts.listRecorded(runId);
      expect(recorded.length).toBeGreaterThan(0);
      expect(
        recorded.every((a) => a.status === 'retrieved' && a.capabilityId === 'research-library.search' && a.turn === 1),
      ).toBe(true);
      expect((await api(h.url, 'GET', `${RUNS}/${runId}/evidence`, { token })).body.artifacts).toEqual([]);
      await expect(executor.inputs[0]!.capabilities.invoke('repository.search', { query: 'x' })).rejects.toMatchObject({
        code: 'tool_not_found',
      });
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
