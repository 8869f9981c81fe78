import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetInputFrom } from '../src/cli/mcpConfig.js';
import { mcpSnippet } from '../src/cli/mcpSnippets.js';
import { agentTool, pendingCallOf } from './support/agentTaskClient.js';
import {
  AGENT_TASK_SCOPES,
  type AgentTaskLibrary,
  DAMPING_DOCUMENT,
  startAgentTaskLibrary,
} from './support/agentTaskLibrary.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp, rawMcp } from './support/mcpClient.js';
import { serverStoreFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const SCOPES = AGENT_TASK_SCOPES;
const SEARCH = 'research-library__search';
const NEVER_RECEIVED = `artifact:sha256:${'f'.repeat(40)}`;

describe.each(serverStoreFlavours())('an external agent works Helix turns over /mcp/codex on $name', (flavour) => {
  let library: AgentTaskLibrary;
  let h: TestHelix;
  let token: string;
  let agent: Client;

  beforeAll(async () => {
    library = await startAgentTaskLibrary(flavour, { 'damping.md': DAMPING_DOCUMENT });
    ({ h, token, agent } = library);
  });
  afterAll(async () => {
    await library?.close();
  });

  const startAgentRun = async () => {
    const started = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: {
        objective: 'How does the resonance damping mechanism reduce vibration?',
        database_scope: ['research_library'],
        turn_executor: 'agent_task',
      },
    });
    expect(started.status, started.text).toBe(201);
    expect(started.body.runtime_provider).toBe('helix.agent_task');
    return started.body.run_id as string;
  };
  const continueRun = (runId: string, expected: number) =>
    api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: expected, instruction: 'Answer with citations.' },
    });
  const claim = async (runId: string, claimId: string) => {
    const callId = await pendingCallOf(agent, runId);
    const claimed = await agentTool(agent, 'claim', { runId, callId, claimId });
    expect(claimed.isError, JSON.stringify(claimed.body)).toBe(false);
    return claimed.body;
  };
  const search = (ownedRef: unknown, toolCallId: string, query: string) =>
    agentTool(agent, 'call_tool', { ownedRef, toolCallId, name: SEARCH, input: { query, limit: 3 } });

  it('claims, calls tools with a retried id, reads an asset, and Helix audits each completion', async () => {
    const runId = await startAgentRun();
    const firstTurn = continueRun(runId, 1);
    const first = await claim(runId, 'codex-claim-1');
    expect(first.recovered).toBe(false);
    expect(first.ownedRef.ownerToken).toMatch(/^hlxown_/);
    expect(first.task.tools.map((t: { name: string }) => t.name)).toContain(SEARCH);
    expect(first.task.outputSchema.properties).toHaveProperty('supporting_refs');
    expect(first.task.instructions).toContain('resonance damping');

    const one = await search(first.ownedRef, 'tc-1', 'resonance damping');
    expect(one.body).toMatchObject({ receiptNumber: 1, outcome: 'ok', replayed: false });
    const ref = one.body.result.results[0].ref as string;
    expect(ref).toMatch(/^artifact:sha256:/);
    // The retried id with the same input returns the retained receipt; nothing runs twice.
    expect((await search(first.ownedRef, 'tc-1', 'resonance damping')).body).toMatchObject({
      receiptNumber: 1,
      replayed: true,
      result: one.body.result,
    });
    const two = await search(first.ownedRef, 'tc-2', 'viscoelastic layer');
    expect(two.body).toMatchObject({ receiptNumber: 2, outcome: 'ok' });

    const asset = await agentTool(agent, 'read_asset', { ownedRef: first.ownedRef, assetId: 'task.md' });
    expect(asset.body).toMatchObject({ assetId: 'task.md', offset: 0, eof: true });
    expect(asset.body.text).toContain('How does the resonance damping mechanism reduce vibration?');

    // Refused completions leave the task open.
    const extra = await agentTool(agent, 'complete', {
      ownedRef: first.ownedRef,
      result: { text: 'x', supporting_refs: [ref], isConfirmed: true },
    });
    expect(extra).toMatchObject({ isError: true, body: { code: 'invalid_request' } });
    const wrongType = await agentTool(agent, 'complete', { ownedRef: first.ownedRef, result: { text: 42 } });
    expect(wrongType).toMatchObject({ isError: true, body: { code: 'invalid_request' } });

    // Citing a ref this task never received: terminal authority refuses it, the run is not completed.
    const forged = await agentTool(agent, 'complete', {
      ownedRef: first.ownedRef,
      result: { text: 'Damping works [1].', supporting_refs: [NEVER_RECEIVED] },
    });
    expect(forged.isError).toBe(false);
    expect(forged.body.run).toMatchObject({ terminal_authority_status: 'not_authorized', lifecycle_status: 'waiting' });
    expect(forged.body.run.latest_result.text).toBeNull();
    const firstAnswer = await firstTurn;
    expect(firstAnswer.status, firstAnswer.text).toBe(200);
    expect(firstAnswer.body.completion_status).not.toBe('completed');

    // The next turn: a valid completion citing a received ref is authorized; the raw JSON text form is accepted.
    const secondTurn = continueRun(runId, firstAnswer.body.version);
    const second = await claim(runId, 'codex-claim-2');
    const receipt = await search(second.ownedRef, 'tc-1', 'resonance damping');
    const cited = receipt.body.result.results[0].ref as string;
    const done = await agentTool(agent, 'complete', {
      ownedRef: second.ownedRef,
      result: JSON.stringify({
        text: 'A viscoelastic layer absorbs the vibration energy [1].',
        supporting_refs: [cited],
      }),
    });
    expect(done.isError, JSON.stringify(done.body)).toBe(false);
    expect(done.body.run).toMatchObject({
      lifecycle_status: 'completed',
      completion_status: 'completed',
      terminal_authority_status: 'authorized',
      latest_result: { writer: 'helix.agent_task', supporting_evidence_refs: [cited] },
    });
    expect((await secondTurn).body.version).toBe(done.body.run.version);
    // The task ended with its turn: its owner token owns nothing now.
    const late = await search(second.ownedRef, 'tc-9', 'anything');
    expect(late).toMatchObject({ isError: true, body: { code: 'agent_call_not_found' } });
  });

  it('refuses other claimants, stale and forged tokens, undeclared tools, assets and oversized reads', async () => {
    const runId = await startAgentRun();
    const turn = continueRun(runId, 1);
    const claimed = await claim(runId, 'codex-claim-a');
    const { callId } = claimed.ownedRef;
    expect(await agentTool(agent, 'claim', { runId, callId, claimId: 'codex-claim-b' })).toMatchObject({
      isError: true,
      body: { code: 'agent_call_claimed' },
    });
    // Another owner sees no call and cannot claim it.
    const stranger = await connectMcp(h.url, await h.key(SCOPES, 'tenant-a', 'account-b'), '/mcp');
    expect((await agentTool(stranger, 'list', {})).body.calls).toEqual([]);
    expect(await agentTool(stranger, 'claim', { runId, callId, claimId: 'codex-claim-a' })).toMatchObject({
      isError: true,
      body: { code: 'agent_call_not_found' },
    });
    await stranger.close();
    // Reconnecting with the same claimId recovers the claim; the old token is stale from then on.
    const recovered = await agentTool(agent, 'claim', { runId, callId, claimId: 'codex-claim-a' });
    expect(recovered.body.recovered).toBe(true);
    const stale = await search(claimed.ownedRef, 'tc-1', 'damping');
    expect(stale).toMatchObject({ isError: true, body: { code: 'agent_call_not_found' } });
    const forgedRef = { ...claimed.ownedRef, ownerToken: `hlxown_${'A'.repeat(43)}` };
    expect(await search(forgedRef, 'tc-1', 'damping')).toMatchObject({
      isError: true,
      body: { code: 'agent_call_not_found' },
    });
    const ownedRef = recovered.body.ownedRef;
    const undeclared = await agentTool(agent, 'call_tool', { ownedRef, toolCallId: 'tc-1', name: 'shell', input: {} });
    expect(undeclared).toMatchObject({ isError: true, body: { code: 'tool_not_found' } });
    await search(ownedRef, 'tc-1', 'damping');
    expect(await search(ownedRef, 'tc-1', 'changed input')).toMatchObject({
      isError: true,
      body: { code: 'agent_tool_call_conflict' },
    });
    for (const assetId of ['../../etc/passwd', '/etc/passwd'])
      expect(await agentTool(agent, 'read_asset', { ownedRef, assetId })).toMatchObject({
        isError: true,
        body: { code: 'invalid_request' },
      });
    expect(await agentTool(agent, 'read_asset', { ownedRef, assetId: 'secrets.md' })).toMatchObject({
      isError: true,
      body: { code: 'agent_asset_not_found' },
    });
    expect(
      await agentTool(agent, 'read_asset', { ownedRef, assetId: 'task.md', maxBytes: 1024 * 1024 + 1 }),
    ).toMatchObject({ isError: true, body: { code: 'invalid_request' } });

    // Cancelling the run invalidates the owner token and refuses late results.
    const cancelled = await api(h.url, 'POST', `${RUNS}/${runId}/cancel`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 2 },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect((await turn).body).toMatchObject({ code: 'run_cancelled' });
    const lateResult = await agentTool(agent, 'complete', {
      ownedRef,
      result: { text: 'too late', supporting_refs: [] },
    });
    expect(lateResult).toMatchObject({ isError: true, body: { code: 'run_cancelled' } });
  });

  it('lets one of two racing claimants win, refuses 10 MB of JSON and an owner token outside an owned reference', async () => {
    const runId = await startAgentRun();
    const turn = continueRun(runId, 1);
    const callId = await pendingCallOf(agent, runId);
    const raced = await Promise.all(
      ['codex-racer-1', 'codex-racer-2'].map((claimId) => agentTool(agent, 'claim', { runId, callId, claimId })),
    );
    expect(raced.filter((r) => !r.isError)).toHaveLength(1);
    expect(raced.filter((r) => r.isError).map((r) => r.body.code)).toEqual(['agent_call_claimed']);
    const { ownedRef } = raced.find((r) => !r.isError)!.body;

    const auth = { authorization: `Bearer ${token}` };
    const huge = await rawMcp(
      h.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'helix_agent_task_complete',
          arguments: { ownedRef, result: { text: 'x'.repeat(10_000_000) } },
        },
      },
      auth,
      '/mcp/codex',
    );
    expect(huge.status).toBe(413);
    // The owner token is admitted only as ownedRef.ownerToken: anywhere else the envelope is refused.
    const misplaced = await rawMcp(
      h.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'helix_agent_task_claim', arguments: { runId, callId, claimId: ownedRef.ownerToken } },
      },
      auth,
      '/mcp/codex',
    );
    expect(misplaced.status).toBe(400);
    expect(misplaced.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });

    // Abandoning ends the turn with a typed failure and no other executor takes it over.
    const abandoned = await agentTool(agent, 'release', { ownedRef, abandon: true });
    expect(abandoned.body).toEqual({ released: true, abandoned: true });
    expect((await turn).body).toMatchObject({
      lifecycle_status: 'waiting',
      completion_status: 'blocked',
      latest_result: { failure_code: 'agent_task_abandoned', writer: null },
    });
  });

  it('`helix mcp config --client codex --profile agent-task` prints a /mcp/codex entry the SDK client can use', async () => {
    const input = snippetInputFrom(
      { client: 'codex', url: `${h.url}/mcp`, tokenEnv: 'HELIX_MCP_TOKEN', auth: 'bearer', profile: 'agent-task' },
      false,
    );
    const { text } = mcpSnippet('codex', input);
    expect(text).not.toContain(token);
    const url = /^url = "(.+)"$/m.exec(text)?.[1];
    expect(url).toBe(`${h.url}/mcp/codex`);
    const enabled = JSON.parse(/^enabled_tools = (.+)$/m.exec(text)?.[1] ?? '[]') as string[];
    expect(enabled).toEqual(expect.arrayContaining(['helix_agent_task_claim', 'helix_agent_task_complete']));
    // The bearer comes from the variable the entry names, as Codex would read it.
    expect(/^bearer_token_env_var = "(.+)"$/m.exec(text)?.[1]).toBe('HELIX_MCP_TOKEN');
    const codex = await connectMcp(h.url, token, new URL(url!).pathname);
    const served = (await codex.listTools()).tools;
    expect(served.map((t) => t.name)).toEqual(expect.arrayContaining(enabled));
    // The Codex presentation profile: same tools, descriptions written for Codex.
    expect(served.find((t) => t.name === 'helix_agent_task_claim')?.description).toMatch(/^Codex:/);
    expect((await codex.callTool({ name: 'helix_agent_task_list', arguments: {} })).isError).not.toBe(true);
    await codex.close();
  });

  it('maps human answers in the reference shape onto pending_questions: complete array, permitted skips, confirmation', async () => {
    const runId = await startAgentRun();
    const askTurn = continueRun(runId, 1);
    const asking = await claim(runId, 'codex-asker-1');
    const asked = await agentTool(agent, 'complete', {
      ownedRef: asking.ownedRef,
      result: {
        text: '',
        questions: [
          { question_id: 'destination', prompt: 'Which project should this go to?' },
          { question_id: 'notes', prompt: 'Any notes?', skippable: true },
        ],
      },
    });
    expect(asked.body.run).toMatchObject({
      completion_status: 'needs_input',
      recommended_next_action: 'answer_pending_questions',
      pending_questions: [{ question_id: 'destination' }, { question_id: 'notes', skippable: true }],
    });
    const version = (await askTurn).body.version as number;
    // The person's own client: another key of the same owner (ATP-31: the agent's key cannot confirm).
    const person = await connectMcp(h.url, await h.key(SCOPES), '/mcp');
    const answer = (request: Record<string, unknown>) =>
      person.callTool({
        name: 'helix_run_answer',
        arguments: { run_id: runId, idempotency_key: idemKey(), request: { expected_version: version, ...request } },
      });
    // Not the complete array; a skip where none is permitted: refused, nothing consumed.
    expect((await answer({ answers: [{ questionId: 'notes', isSkipped: true }] })).structuredContent).toMatchObject({
      code: 'invalid_answer',
    });
    expect(
      (
        await answer({
          answers: [
            { questionId: 'destination', isSkipped: true },
            { questionId: 'notes', isSkipped: true },
          ],
        })
      ).structuredContent,
    ).toMatchObject({ code: 'invalid_answer' });
    // A dismissed form keeps the run waiting, unchanged.
    expect((await answer({ formCancelled: true })).structuredContent).toMatchObject({
      version,
      lifecycle_status: 'waiting',
      pending_questions: [{ question_id: 'destination' }, { question_id: 'notes' }],
    });

    // The complete array starts the next turn; the agent sees the answers, then asks for a confirmation.
    const answered = answer({
      answers: [
        { questionId: 'destination', isSkipped: false, answer: 'Local project' },
        { questionId: 'notes', isSkipped: true },
      ],
    });
    const confirming = await claim(runId, 'codex-asker-2');
    expect(confirming.task.instructions).toContain('destination: Local project');
    expect(confirming.task.instructions).toContain('notes: {"is_skipped":true}');
    await agentTool(agent, 'complete', {
      ownedRef: confirming.ownedRef,
      result: {
        text: '',
        questions: [{ question_id: 'scope_ok', prompt: 'Confirm the scope?', kind: 'confirmation' }],
      },
    });
    const waiting = (await answered).structuredContent as { version: number; pending_questions: unknown[] };
    expect(waiting.pending_questions).toEqual([
      { question_id: 'scope_ok', prompt: 'Confirm the scope?', kind: 'confirmation' },
    ]);
    // Over REST too, a confirmation takes only { is_confirmed, feedback }.
    const restConfirm = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: waiting.version, answers: [{ question_id: 'scope_ok', value: 'yes' }] },
    });
    expect(restConfirm.status).toBe(400);
    expect(restConfirm.body.code).toBe('invalid_answer');
    const confirmed = person.callTool({
      name: 'helix_run_answer',
      arguments: {
        run_id: runId,
        idempotency_key: idemKey(),
        request: {
          expected_version: waiting.version,
          confirmation: { questionId: 'scope_ok', isConfirmed: false, feedback: 'Please revise the proposed scope.' },
        },
      },
    });
    const revising = await claim(runId, 'codex-asker-3');
    expect(revising.task.instructions).toContain(
      'scope_ok: {"is_confirmed":false,"feedback":"Please revise the proposed scope."}',
    );
    await agentTool(agent, 'release', { ownedRef: revising.ownedRef, abandon: true });
    expect(((await confirmed).structuredContent as { lifecycle_status: string }).lifecycle_status).toBe('waiting');
    await person.close();
  });
});

describe('an agent task nobody completes', () => {
  it('is withdrawn at the turn deadline: the turn fails as turn_timeout and no other executor answers', async () => {
    const [sqlite] = serverStoreFlavours();
    const h = await startTestHelix(sqlite!, { env: { HELIX_AGENT_TURN_TIMEOUT_MS: '1000' } });
    try {
      const token = await h.key();
      const started = await api(h.url, 'POST', RUNS, {
        token,
        idempotencyKey: idemKey(),
        body: { objective: 'Wait for an agent that never comes', turn_executor: 'agent_task' },
      });
      const runId = started.body.run_id as string;
      const agent = await connectMcp(h.url, token, '/mcp/codex');
      const turn = api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
        token,
        idempotencyKey: idemKey(),
        body: { expected_version: 1, instruction: 'anyone?' },
      });
      expect((await turn).body).toMatchObject({
        lifecycle_status: 'waiting',
        completion_status: 'blocked',
        latest_result: { outcome: 'timed_out', failure_code: 'turn_timeout', writer: null },
      });
      // The call went with its turn.
      expect((await agentTool(agent, 'list', { runId })).body.calls).toEqual([]);
      await agent.close();
    } finally {
      await h.close();
    }
  });
});
