import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelixRestClient } from '../src/client/restClient.js';
import { ChatCompletionsClient } from '../src/model/chat/chatCompletions.js';
import type { ModelResolver } from '../src/model/port.js';
import { ModelExecutor } from '../src/solver/model/modelExecutor.js';
import { ingestPaths } from '../src/sources/library/ingest.js';
import { api, idemKey, startTestHelix, waitFor, type TestHelix } from './support/harness.js';
import {
  startScriptedChatServer,
  submitCall,
  toolMessages,
  type RecordedChatRequest,
  type ScriptedChatServer,
} from './support/scriptedChatServer.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const SCOPES = 'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read';
const MODEL_KEY = 'sk-local-e2e-key-5f0c1a9b7d';
const MAX_TOOL_CALLS = 4;
const SEARCH = 'research-library__search';
/** A word no library file contains: if it shows up in a projection, tool arguments leaked. */
const ARGUMENT_MARKER = 'zyzzyvaquux';
const REASONING_MARKER = 'private-chain-of-thought-7731';

/** The refs the executor returned to the model in the latest tool message of a request. */
const refsIn = (request: RecordedChatRequest): string[] => {
  const last = toolMessages(request).at(-1);
  return last === undefined ? [] : (JSON.parse(last.content).results ?? []).map((r: { ref: string }) => r.ref);
};

const searchCall = (id = 'call_search') => ({
  id,
  name: SEARCH,
  arguments: JSON.stringify({ query: `resonance damping ${ARGUMENT_MARKER}`, limit: 3 }),
});

describe('the model-driven executor end to end (Chat Completions on loopback, real research library)', () => {
  let h: TestHelix;
  let chat: ScriptedChatServer;
  let token: string;
  let dir: string;
  let repo: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'helix-model-'));
    repo = join(dir, 'repo');
    mkdirSync(join(dir, 'library'));
    mkdirSync(repo);
    writeFileSync(
      join(dir, 'library', 'damping.md'),
      '# Resonance damping\n\nThe resonance damping mechanism reduces vibration amplitude by absorbing energy in a viscoelastic layer bonded to the panel.\n',
    );
    writeFileSync(join(repo, 'notes.md'), 'Repository notes about resonance damping.\n');
    chat = await startScriptedChatServer();
    const client = new ChatCompletionsClient({
      baseUrl: chat.url,
      apiKey: MODEL_KEY,
      retry: { sleep: async () => undefined },
    });
    const resolver: ModelResolver = { forOwner: async () => ({ client, model: 'scripted-model' }) };
    const [flavour] = storeFlavours();
    h = await startTestHelix(flavour!, {
      executor: new ModelExecutor({ resolver, maxToolCalls: MAX_TOOL_CALLS }),
      // repository_evidence is configured and enabled here, but the runs below never ask for it.
      env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library,repository_evidence', HELIX_REPOSITORY_ROOTS: repo },
    });
    expect(await ingestPaths(h.testStore.store, [join(dir, 'library')], Date.now)).toMatchObject({
      added: 1,
      failed: 0,
    });
    token = await h.key(SCOPES);
  });
  afterAll(async () => {
    await h?.close();
    await chat?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (objective = 'How does the resonance damping mechanism reduce vibration?') =>
    (
      await new HelixRestClient(h.url, token).start({
        objective,
        database_scope: ['research_library'],
      })
    ).run_id;
  const turn = (runId: string, expected = 1) =>
    api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: expected, instruction: 'Answer with citations.' },
    });
  /** The three projections, each parsed against its output schema by the typed client. */
  const projections = async (runId: string) => {
    const client = new HelixRestClient(h.url, token);
    const inspect = await client.inspect(runId);
    const { events } = await client.events(runId, { limit: 200 });
    const evidence = await client.evidence(runId);
    return { inspect, events, evidence, all: JSON.stringify([inspect, events, evidence]) };
  };

  it('completes: the model searches the library, cites a returned ref, and usage is recorded for the turn', async () => {
    const before = chat.requests.length;
    chat.push({ kind: 'tool_calls', reasoning: REASONING_MARKER, calls: [searchCall()] }, (request) => {
      const [ref] = refsIn(request);
      return {
        kind: 'tool_calls',
        calls: [
          submitCall({
            text: 'A viscoelastic layer absorbs the vibration energy [1].',
            supporting_refs: [ref],
            output_fields: { mechanism: 'viscoelastic damping' },
          }),
        ],
      };
    });
    const runId = await start();
    const res = await turn(runId);
    expect(res.body).toMatchObject({
      completion_status: 'completed',
      terminal_authority_status: 'authorized',
      lifecycle_status: 'completed',
      runtime_provider: 'helix.model',
    });
    const cited = res.body.latest_result.supporting_evidence_refs as string[];
    expect(cited).toHaveLength(1);
    expect(res.body.latest_result.output_fields).toMatchObject({ mechanism: 'viscoelastic damping' });

    const { events, evidence, all } = await projections(runId);
    expect(evidence.artifacts.find((a) => a.ref === cited[0])).toMatchObject({
      capability_id: 'research-library.search',
      turn: 1,
    });
    expect(events.find((e) => e.kind === 'run.completed')?.data).toEqual({
      turn: 1,
      usage: {
        input_tokens: 200,
        cached_input_tokens: 0,
        cache_write_tokens: 0,
        output_tokens: 40,
        reasoning_tokens: 0,
        total_tokens: 240,
      },
    });
    // What the model saw and said stays between Helix and the model.
    for (const leak of [ARGUMENT_MARKER, REASONING_MARKER, 'submit_result', 'call_search', 'Never reveal', MODEL_KEY])
      expect(all).not.toContain(leak);

    const [first, second] = chat.requests.slice(before);
    expect(first?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
    expect(first?.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'research-library__read_document',
      SEARCH,
      'submit_result',
    ]);
    expect(first?.body.messages[1].content).toContain('How does the resonance damping mechanism reduce vibration?');
    expect(JSON.stringify(second?.body)).not.toContain(REASONING_MARKER);
  });

  it('a ref the model never retrieved is not authorized, even next to a real one, and the run does not complete', async () => {
    const invented = `artifact:sha256:${'ab12'.repeat(10)}`;
    chat.push({ kind: 'tool_calls', calls: [searchCall()] }, (request) => ({
      kind: 'tool_calls',
      calls: [
        submitCall({ text: 'Damping works by a mechanism [1][2].', supporting_refs: [refsIn(request)[0], invented] }),
      ],
    }));
    const runId = await start();
    const res = await turn(runId);
    expect(res.body).toMatchObject({
      completion_status: 'needs_more_evidence',
      terminal_authority_status: 'not_authorized',
      lifecycle_status: 'waiting',
      latest_result: { text: null, supporting_evidence_refs: [] },
    });
    const { events, evidence } = await projections(runId);
    expect(events.find((e) => e.kind === 'run.terminal_authority_evaluated')?.data).toMatchObject({
      status: 'not_authorized',
      reason: 'support_not_current_turn',
    });
    expect(evidence.artifacts.map((a) => a.ref)).not.toContain(invented);
  });

  it.each([
    // The cited passage is real and on topic; the answer states no number for "how many".
    [
      'How many layers does the resonance damping mechanism bond to the panel?',
      'A viscoelastic layer is bonded to the panel [1].',
      'answer_type_missing',
    ],
    // "titanium" occurs nowhere in the library: no cited sentence is about the asked panel.
    [
      'What damping ratio does the titanium panel reach?',
      'The mechanism absorbs energy in a viscoelastic layer [1].',
      'focus_not_covered',
    ],
  ])(
    'the answer contract refuses a model answer that cites a real passage but misses the question: %s',
    async (objective, text, reason) => {
      chat.push({ kind: 'tool_calls', calls: [searchCall()] }, (request) => ({
        kind: 'tool_calls',
        calls: [submitCall({ text, supporting_refs: [refsIn(request)[0]] })],
      }));
      const runId = await start(objective);
      const res = await turn(runId);
      expect(res.body).toMatchObject({
        completion_status: 'needs_more_evidence',
        terminal_authority_status: 'not_authorized',
        latest_result: { text: null, writer: 'helix.model', authority_reason: reason },
        unresolved_requirements: ['answer_not_found'],
        recommended_next_action: 'broaden_scope',
      });
      expect(res.body.answer_contract.parts[0].focus_terms.length).toBeGreaterThan(0);
      const { events } = await projections(runId);
      expect(events.find((e) => e.kind === 'run.terminal_authority_evaluated')?.data).toMatchObject({
        status: 'not_authorized',
        reason,
        answer_contract: { reason },
      });
    },
  );

  it('tools outside the admitted set answer tool_not_found and the turn carries on', async () => {
    const before = chat.requests.length;
    chat.push(
      // repository.search exists on this server, but this run did not admit repository_evidence.
      {
        kind: 'tool_calls',
        calls: [
          { id: 'c1', name: 'repository__search', arguments: '{"query":"damping"}' },
          { id: 'c2', name: 'read_secrets', arguments: '{}' },
        ],
      },
      { kind: 'tool_calls', calls: [searchCall()] },
      (request) => ({
        kind: 'tool_calls',
        calls: [
          submitCall({ text: 'A viscoelastic layer absorbs energy [1].', supporting_refs: [refsIn(request)[0]] }),
        ],
      }),
    );
    const runId = await start();
    const res = await turn(runId);
    const [first, second] = chat.requests.slice(before);
    expect(first?.body.tools.map((t: { function: { name: string } }) => t.function.name)).not.toContain(
      'repository__search',
    );
    expect(toolMessages(second!)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: '{"error":"tool_not_found"}' },
      { role: 'tool', tool_call_id: 'c2', content: '{"error":"tool_not_found"}' },
    ]);
    expect(res.body).toMatchObject({ completion_status: 'completed', terminal_authority_status: 'authorized' });
    const { evidence } = await projections(runId);
    expect(evidence.artifacts.every((a) => a.capability_id.startsWith('research-library.'))).toBe(true);
  });

  it('the tool-call cap holds: after it, one last request, then model_did_not_submit', async () => {
    const before = chat.requests.length;
    const again = { kind: 'tool_calls' as const, calls: [searchCall()] };
    chat.push(...Array.from({ length: MAX_TOOL_CALLS + 1 }, () => again));
    const runId = await start();
    const res = await turn(runId);
    const requests = chat.requests.slice(before);
    expect(requests).toHaveLength(MAX_TOOL_CALLS + 1);
    expect(requests.at(-1)?.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'submit_result',
    ]);
    expect(res.body).toMatchObject({ completion_status: 'needs_more_evidence', lifecycle_status: 'waiting' });
    expect(res.body.unresolved_requirements).toContain('model_did_not_submit');
  });

  it('a cancel during a slow model response cancels the run and aborts the model request', async () => {
    const before = chat.requests.length;
    chat.push({ kind: 'hang' });
    const runId = await start();
    const pending = turn(runId);
    await waitFor(async () => chat.requests.length > before);
    const cancel = await api(h.url, 'POST', `${RUNS}/${runId}/cancel`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 2, reason: 'stop' },
    });
    expect(cancel.body).toMatchObject({ lifecycle_status: 'cancelled', completion_status: 'cancelled' });
    expect((await pending).body).toMatchObject({ code: 'run_cancelled' });
    const request = chat.requests[before]!;
    await request.settled;
    expect(request.clientAborted).toBe(true);
  });

  it('a model that keeps answering 429 fails the turn with a typed code, and the key never appears', async () => {
    const before = chat.requests.length;
    const limited = {
      kind: 'http_error' as const,
      status: 429,
      body: { error: { message: `Rate limit for key ${MODEL_KEY}`, type: 'rate_limit_exceeded' } },
    };
    chat.push(limited, limited, limited);
    const runId = await start();
    const res = await turn(runId);
    expect(chat.requests.length - before).toBe(3);
    expect(res.body).toMatchObject({
      completion_status: 'blocked',
      lifecycle_status: 'waiting',
      latest_result: { outcome: 'failed', failure_code: 'model_rate_limited' },
    });
    const { events, all } = await projections(runId);
    expect(events.find((e) => e.kind === 'run.blocked')?.data).toMatchObject({
      failure_code: 'model_rate_limited',
      usage: { total_tokens: 0 },
    });
    expect(all).not.toContain(MODEL_KEY);
    expect(all).not.toContain('Rate limit for key');
  });
});

describe('a model turn cut short by its deadline', () => {
  it('still records the tokens its completed model calls spent, on the blocked turn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'helix-model-timeout-'));
    const chat = await startScriptedChatServer();
    const client = new ChatCompletionsClient({ baseUrl: chat.url, retry: { sleep: async () => undefined } });
    const [flavour] = storeFlavours();
    const h = await startTestHelix(flavour!, {
      executor: new ModelExecutor({
        resolver: { forOwner: async () => ({ client, model: 'scripted-model' }) },
        maxToolCalls: MAX_TOOL_CALLS,
      }),
      env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library', HELIX_AGENT_TURN_TIMEOUT_MS: '1000' },
    });
    try {
      writeFileSync(
        join(dir, 'damping.md'),
        '# Resonance damping\n\nA viscoelastic layer absorbs the vibration energy.\n',
      );
      await ingestPaths(h.testStore.store, [dir], Date.now);
      const token = await h.key(SCOPES);
      // One call completes (312 tokens), then the model stalls past the 1 s turn deadline.
      chat.push(
        {
          kind: 'tool_calls',
          calls: [searchCall()],
          usage: { prompt_tokens: 300, completion_tokens: 12, total_tokens: 312 },
        },
        { kind: 'hang' },
      );
      const started = await api(h.url, 'POST', RUNS, {
        token,
        idempotencyKey: idemKey(),
        body: { objective: 'How does resonance damping work?', database_scope: ['research_library'] },
      });
      const res = await api(h.url, 'POST', `${RUNS}/${started.body.run_id}/continue`, {
        token,
        idempotencyKey: idemKey(),
        body: { expected_version: 1, instruction: 'Answer.' },
      });
      expect(res.body).toMatchObject({
        completion_status: 'blocked',
        latest_result: { outcome: 'timed_out', failure_code: 'turn_timeout' },
      });
      const events = (await api(h.url, 'GET', `${RUNS}/${started.body.run_id}/events`, { token })).body.events as {
        kind: string;
        data: Record<string, unknown>;
      }[];
      expect(events.find((e) => e.kind === 'run.blocked')?.data.usage).toEqual({
        input_tokens: 300,
        cached_input_tokens: 0,
        cache_write_tokens: 0,
        output_tokens: 12,
        reasoning_tokens: 0,
        total_tokens: 312,
      });
    } finally {
      await h.close();
      await chat.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
