import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCodexLogin } from '../src/model/codex/codexCredentials.js';
import { codexPaths } from '../src/model/codex/endpoints.js';
import { FileCredentialDocumentStore } from '../src/model/codex/credentialStore.js';
import { api, idemKey } from './support/harness.js';
import { startCodexFixture, type CodexFixture } from './support/codexFixture.js';
import { runCli, startCliServer, type ServerProcess } from './support/processes.js';
import { readResponsesFixture, sseBody, type RecordedResponsesRequest } from './support/responsesFixtureServer.js';
import { ceilingFor } from './support/ceilings.js';
import {
  startScriptedChatServer,
  submitCall,
  toolMessages,
  type RecordedChatRequest,
  type ScriptedChatServer,
} from './support/scriptedChatServer.js';

/**
 * The shipped composition, process for process: `helix serve` picks the model provider from its
 * environment (and per owner from registrations), drives the turn through it with the real
 * research library, and `helix models` lists what a provider offers.
 */
const RUNS = '/api/v1/agent-runs';
const RUN_SCOPES = 'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read';
const OBJECTIVE = 'How does the resonance damping mechanism reduce vibration?';
const SEARCH = 'research-library__search';
const LIBRARY_TEXT =
  '# Resonance damping\n\nThe resonance damping mechanism reduces vibration amplitude by absorbing energy in a viscoelastic layer bonded to the panel.\n';

const chatRefs = (request: RecordedChatRequest): string[] => {
  const last = toolMessages(request).at(-1);
  return last === undefined ? [] : (JSON.parse(last.content).results ?? []).map((r: { ref: string }) => r.ref);
};

const searchThenCite = (chat: ScriptedChatServer, text: string) =>
  chat.push(
    {
      kind: 'tool_calls',
      calls: [{ id: 'call_search', name: SEARCH, arguments: JSON.stringify({ query: 'resonance damping', limit: 3 }) }],
    },
    (request) => ({
      kind: 'tool_calls',
      calls: [submitCall({ text, supporting_refs: chatRefs(request).slice(0, 1) })],
    }),
  );

const newKey = async (database: string, scopes: string, account = 'a'): Promise<string> => {
  const created = await runCli([
    'keys',
    'create',
    '--tenant',
    't',
    '--account',
    account,
    '--scopes',
    scopes,
    '--database',
    database,
  ]);
  expect(created.code, created.stderr).toBe(0);
  return created.stdout.trimEnd().split('\n').at(-1)!;
};

const runOnce = async (url: string, token: string) => {
  const started = await api(url, 'POST', RUNS, {
    token,
    idempotencyKey: idemKey(),
    body: { objective: OBJECTIVE, database_scope: ['research_library'] },
  });
  expect(started.status, started.text).toBe(201);
  const turn = await api(url, 'POST', `${RUNS}/${started.body.run_id}/continue`, {
    token,
    idempotencyKey: idemKey(),
    body: { expected_version: 1, instruction: 'Answer with citations.' },
  });
  expect(turn.status, turn.text).toBe(200);
  return turn.body;
};

describe('helix serve with model providers', () => {
  let dir: string;
  let database: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'helix-providers-serve-'));
    database = join(dir, 'helix.db');
    mkdirSync(join(dir, 'library'));
    writeFileSync(join(dir, 'library', 'damping.md'), LIBRARY_TEXT);
    const added = await runCli(['library', 'add', join(dir, 'library', 'damping.md'), '--database', database]);
    expect(added.code, added.stderr).toBe(0);
  }, ceilingFor(1));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('the operator default is a Chat Completions server, and an owner registers its own', () => {
    let operatorModel: ScriptedChatServer;
    let ownerModel: ScriptedChatServer;
    let server: ServerProcess;
    const ownerApiKey = `sk-owner-${randomBytes(12).toString('hex')}`;

    beforeAll(async () => {
      operatorModel = await startScriptedChatServer();
      ownerModel = await startScriptedChatServer();
      server = await startCliServer(database, {
        HELIX_AGENT_DATABASE_SCOPES: 'research_library',
        HELIX_MODEL_PROVIDER: 'chat-completions',
        HELIX_MODEL_BASE_URL: operatorModel.url,
        HELIX_MODEL: 'operator-model',
        HELIX_PROVIDER_SECRET_KEY: randomBytes(32).toString('base64'),
        // The owner's model server is on loopback: the operator admits it (the operator's own is exempt).
        HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: '127.0.0.1/32',
        HELIX_LOG_LEVEL: 'debug',
      });
    }, ceilingFor(1));
    afterAll(async () => {
      await server?.kill('SIGTERM');
      await operatorModel?.close();
      await ownerModel?.close();
    });

    it("an owner without a registration is answered by the operator's model", { timeout: ceilingFor(1) }, async () => {
      const token = await newKey(database, RUN_SCOPES, 'plain');
      searchThenCite(operatorModel, 'A viscoelastic layer absorbs the vibration energy [1].');
      const view = await runOnce(server.url, token);
      expect(view).toMatchObject({
        completion_status: 'completed',
        terminal_authority_status: 'authorized',
        runtime_provider: 'helix.model',
      });
      expect(view.latest_result.text).toBe('A viscoelastic layer absorbs the vibration energy [1].');
      expect(operatorModel.requests.map((r) => r.body.model)).toEqual(['operator-model', 'operator-model']);
    });

    // Issue 11, item 2: a provider streaming 240 MiB per reply to 5 concurrent turns took the heap to 6.1 GB.
    it('a provider whose answers never end is cut off at the response bound: the turns fail, the server keeps serving', {
      timeout: ceilingFor(1),
    }, async () => {
      const token = await newKey(database, RUN_SCOPES, 'flooded');
      const FLOOD = 300 * 1024 * 1024;
      const before = operatorModel.requests.length;
      operatorModel.push(...Array.from({ length: 5 }, () => ({ kind: 'flood' as const, maxBytes: FLOOD })));
      const views = await Promise.all(Array.from({ length: 5 }, () => runOnce(server.url, token)));
      for (const view of views) {
        expect(view.latest_result).toMatchObject({ outcome: 'failed', failure_code: 'model_output_limit', text: null });
        expect(view.completion_status).not.toBe('completed');
      }
      const floods = operatorModel.requests.slice(before);
      expect(floods).toHaveLength(5);
      await Promise.all(floods.map((r) => r.settled));
      // The default bound is 8 MiB of answer per call; the socket buffers let a little more through.
      for (const r of floods) {
        expect(r.clientAborted).toBe(true);
        expect(r.bytesSent).toBeLessThan(16 * 1024 * 1024);
      }
      expect(server.child.exitCode).toBeNull();
      expect((await api(server.url, 'GET', '/healthz')).status).toBe(200);
    });

    it("an owner's registered provider drives that owner's runs, with its key, and nobody else's", {
      timeout: ceilingFor(1),
    }, async () => {
      const token = await newKey(database, `${RUN_SCOPES} provider.read provider.write`, 'owner');
      const registered = await api(server.url, 'POST', '/api/v1/model-providers', {
        token,
        body: { kind: 'chat-completions', base_url: ownerModel.url, model: 'owner-model', api_key: ownerApiKey },
      });
      expect(registered.status, registered.text).toBe(201);
      expect(registered.text).not.toContain(ownerApiKey);

      const operatorCalls = operatorModel.requests.length;
      searchThenCite(ownerModel, 'The panel damps vibration through its viscoelastic layer [1].');
      const view = await runOnce(server.url, token);
      expect(view).toMatchObject({ completion_status: 'completed', terminal_authority_status: 'authorized' });
      expect(ownerModel.requests.map((r) => [r.body.model, r.headers.authorization])).toEqual([
        ['owner-model', `Bearer ${ownerApiKey}`],
        ['owner-model', `Bearer ${ownerApiKey}`],
      ]);
      expect(operatorModel.requests).toHaveLength(operatorCalls);

      // Deleting the registration hands the owner back to the operator default.
      const removed = await api(server.url, 'DELETE', `/api/v1/model-providers/${registered.body.provider_id}`, {
        token,
      });
      expect(removed.status, removed.text).toBe(204);
      searchThenCite(operatorModel, 'Energy is absorbed by the viscoelastic layer [1].');
      expect(await runOnce(server.url, token)).toMatchObject({ completion_status: 'completed' });
      expect(operatorModel.requests).toHaveLength(operatorCalls + 2);

      // The key went to the owner's model server and nowhere else: not the log, not the database.
      expect(server.stderr()).not.toContain(ownerApiKey);
      expect(readFileSync(database).includes(Buffer.from(ownerApiKey))).toBe(false);
    });
  });

  describe('the operator default is the Codex subscription', () => {
    let codex: CodexFixture;
    let server: ServerProcess;
    let home: string;
    let accessToken: string;
    let accountId: string;
    const backend = () => codex.backend;

    const functionCallReply = (callId: string, name: string, args: unknown) =>
      sseBody([
        ['response.created', { response: { id: `resp_${callId}`, status: 'in_progress', output: [] } }],
        [
          'response.output_item.done',
          {
            output_index: 0,
            item: {
              id: `fc_${callId}`,
              type: 'function_call',
              status: 'completed',
              call_id: callId,
              name,
              arguments: JSON.stringify(args),
            },
          },
        ],
        [
          'response.completed',
          {
            response: {
              id: `resp_${callId}`,
              status: 'completed',
              output: [],
              usage: {
                input_tokens: 500,
                input_tokens_details: { cached_tokens: 100 },
                output_tokens: 20,
                output_tokens_details: { reasoning_tokens: 8 },
                total_tokens: 520,
              },
            },
          },
        ],
      ]);

    /** The ref in the latest `function_call_output` the request carries back to the model. */
    const outputRefs = (request: RecordedResponsesRequest): string[] => {
      const input = (request.body as { input: { type: string; output?: string }[] }).input;
      const output = input.filter((item) => item.type === 'function_call_output').at(-1)?.output;
      return output === undefined ? [] : (JSON.parse(output).results ?? []).map((r: { ref: string }) => r.ref);
    };

    const scriptSearchThenCite = () =>
      backend().script(
        codexPaths.responses,
        { sseText: functionCallReply('call_1', SEARCH, { query: 'resonance damping', limit: 3 }) },
        (request) => ({
          sseText: functionCallReply('call_2', 'submit_result', {
            text: 'A viscoelastic layer absorbs the energy [1].',
            supporting_refs: outputRefs(request).slice(0, 1),
          }),
        }),
      );

    /** Saves a login as `helix login codex` would, with an access token valid for `seconds`. */
    const login = async (seconds: number) => {
      const tokens = await codex.auth.mint({ expiresInSeconds: seconds });
      await saveCodexLogin(new FileCredentialDocumentStore({ home }), 'local', {
        idToken: tokens.id_token,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt: Date.now() + seconds * 1000,
        accountId,
      });
      return tokens;
    };
    const storedDocument = () => JSON.parse(readFileSync(join(home, 'codex', 'local.json'), 'utf8'));

    beforeAll(async () => {
      home = join(dir, 'home');
      codex = await startCodexFixture();
      accountId = codex.auth.accountId;
      accessToken = (await login(3600)).access_token;
      server = await startCliServer(database, {
        HELIX_AGENT_DATABASE_SCOPES: 'research_library',
        HELIX_MODEL_PROVIDER: 'codex-subscription',
        HELIX_MODEL: 'gpt-5.1-codex',
        HELIX_MODEL_REASONING_EFFORT: 'medium',
        HELIX_HOME: home,
        HELIX_CODEX_TEST_ORIGIN: codex.origin,
        HELIX_LOG_LEVEL: 'debug',
      });
    }, ceilingFor(1));
    afterAll(async () => {
      await server?.kill('SIGTERM');
      await codex?.close();
    });

    it('a run completes through the subscription, with the pinned request shape and the login from `helix login codex`', {
      timeout: ceilingFor(1),
    }, async () => {
      const token = await newKey(database, RUN_SCOPES, 'codex');
      scriptSearchThenCite();
      const view = await runOnce(server.url, token);
      expect(view).toMatchObject({ completion_status: 'completed', terminal_authority_status: 'authorized' });
      expect(view.latest_result.supporting_evidence_refs).toHaveLength(1);

      const [first, second] = backend().requestsTo(codexPaths.responses);
      expect(first?.headers).toMatchObject({
        authorization: `Bearer ${accessToken}`,
        'chatgpt-account-id': accountId,
        originator: 'helix',
        accept: 'text/event-stream',
      });
      expect(first?.headers['session-id']).toBe(view.run_id);
      expect(first?.body).toMatchObject({
        model: 'gpt-5.1-codex',
        store: false,
        stream: true,
        prompt_cache_key: view.run_id,
        reasoning: { effort: 'medium', summary: 'auto' },
      });
      // The second request pairs the call with its output, by call id, after the resume.
      const input = (second!.body as { input: { type: string; call_id?: string; id?: string }[] }).input;
      expect(
        input
          .filter((i) => i.type === 'function_call' || i.type === 'function_call_output')
          .map((i) => [i.type, i.call_id, i.id]),
      ).toEqual([
        ['function_call', 'call_1', 'fc_call_1'],
        ['function_call_output', 'call_1', undefined],
      ]);

      const events = (await api(server.url, 'GET', `${RUNS}/${view.run_id}/events?limit=100`, { token })).body
        .events as { kind: string; data: Record<string, unknown> }[];
      expect(events.find((e) => e.kind === 'run.completed')?.data.usage).toEqual({
        input_tokens: 1000,
        cached_input_tokens: 200,
        cache_write_tokens: 0,
        output_tokens: 40,
        reasoning_tokens: 16,
        total_tokens: 1040,
      });
      for (const secret of [accessToken, accountId]) expect(server.stderr()).not.toContain(secret);
    });

    it('an access token about to expire is refreshed before the turn, and the rotation is on disk before the request goes out', {
      timeout: ceilingFor(1),
    }, async () => {
      const stale = await login(30); // inside the 60 s refresh skew
      const token = await newKey(database, RUN_SCOPES, 'codex-refresh');
      const refreshesBefore = codex.auth.grants('refresh_token').length;
      scriptSearchThenCite();
      expect(await runOnce(server.url, token)).toMatchObject({ completion_status: 'completed' });

      expect(codex.auth.grants('refresh_token')).toHaveLength(refreshesBefore + 1);
      const stored = storedDocument();
      expect(stored).toMatchObject({ version: 2, health: { state: 'ok' } });
      expect(stored.tokens.refresh_token).not.toBe(stale.refresh_token);
      expect(stored.tokens.access_token).not.toBe(stale.access_token);
      const sent = backend()
        .requestsTo(codexPaths.responses)
        .slice(-2)
        .map((r) => r.headers.authorization);
      expect(sent).toEqual([`Bearer ${stored.tokens.access_token}`, `Bearer ${stored.tokens.access_token}`]);
      for (const secret of [stale.refresh_token, stored.tokens.refresh_token, stored.tokens.access_token])
        expect(server.stderr()).not.toContain(secret);
    });

    it('a refused refresh fails the run as model_auth (no later turn could succeed) and leaves the login marked reconnect-required for `helix auth status`', {
      timeout: ceilingFor(2),
    }, async () => {
      await login(30);
      codex.auth.scriptRefresh({
        kind: 'error',
        status: 400,
        body: { error: { code: 'refresh_token_reused', message: 'already used' } },
      });
      const token = await newKey(database, RUN_SCOPES, 'codex-refused');
      const requestsBefore = backend().requestsTo(codexPaths.responses).length;
      const view = await runOnce(server.url, token);
      expect(view).toMatchObject({
        lifecycle_status: 'failed',
        completion_status: 'failed',
        recommended_next_action: 'stop',
        latest_result: { outcome: 'failed', failure_code: 'model_auth' },
      });
      expect(backend().requestsTo(codexPaths.responses)).toHaveLength(requestsBefore);
      expect(storedDocument().health).toMatchObject({ state: 'reconnect-required', reason: 'refresh_token_reused' });

      const status = await runCli(['auth', 'status'], { HELIX_HOME: home });
      expect(status.stdout).toContain('reconnect required (refresh_token_reused');
      // A new login clears it for the next run.
      await login(3600);
      scriptSearchThenCite();
      expect(await runOnce(server.url, token)).toMatchObject({ completion_status: 'completed' });
    });

    it("a failed Codex turn shows the backend's stated type, code and message on the run and its closing event (issue 27 item 18)", {
      timeout: ceilingFor(2),
    }, async () => {
      await login(3600);
      const token = await newKey(database, RUN_SCOPES, 'codex-failed');
      const closing = async (runId: string) =>
        (
          (await api(server.url, 'GET', `${RUNS}/${runId}/events?limit=100`, { token })).body.events as {
            kind: string;
            data: Record<string, unknown>;
          }[]
        ).at(-1);

      // The recorded `response.failed` terminal: response.error {code, message}.
      backend().script(codexPaths.responses, { sse: 'failed-usage-not-included.sse' });
      const failed = await runOnce(server.url, token);
      const stated = {
        provider: 'codex-subscription',
        type: null,
        code: 'usage_not_included',
        message: 'Your plan does not include Codex usage.',
        http_status: null,
      };
      expect(failed).toMatchObject({
        lifecycle_status: 'failed',
        latest_result: { outcome: 'failed', failure_code: 'model_quota', failure_detail: stated },
      });
      expect(await closing(failed.run_id)).toMatchObject({
        kind: 'run.failed',
        data: { failure_code: 'model_quota', failure_detail: stated },
      });

      // The recorded HTTP 429 usage_limit_reached body: {"error":{"type", "message", …}}.
      backend().script(codexPaths.responses, {
        json: JSON.parse(readResponsesFixture('usage-limit-reached.429.json')),
        status: 429,
      });
      const limited = await runOnce(server.url, token);
      expect(limited.latest_result).toMatchObject({
        failure_code: 'model_quota',
        failure_detail: {
          provider: 'codex-subscription',
          type: 'usage_limit_reached',
          message: 'The usage limit has been reached',
          http_status: 429,
        },
      });
      for (const view of [failed, limited]) {
        const text = JSON.stringify(view);
        for (const secret of [accessToken, accountId]) expect(text).not.toContain(secret);
      }
    });

    it('`helix models` lists the subscription models in provider order without printing credentials', {
      timeout: ceilingFor(1),
    }, async () => {
      backend().script(codexPaths.models.split('?')[0]!, {
        json: {
          models: [
            {
              slug: 'gpt-5.1-codex',
              display_name: 'GPT-5.1 Codex',
              supported_reasoning_levels: [{ effort: 'low' }, { effort: 'medium' }],
              default_reasoning_level: 'medium',
              visibility: 'list',
              context_window: 272000,
            },
            {
              slug: 'gpt-5.1-codex-mini',
              display_name: 'GPT-5.1 Codex Mini',
              supported_reasoning_levels: [],
              visibility: 'list',
            },
          ],
        },
      });
      const res = await runCli(['models'], {
        HELIX_MODEL_PROVIDER: 'codex-subscription',
        HELIX_MODEL: 'gpt-5.1-codex',
        HELIX_HOME: home,
        HELIX_CODEX_TEST_ORIGIN: codex.origin,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout.trimEnd().split('\n')).toEqual([
        'gpt-5.1-codex  (GPT-5.1 Codex)  reasoning: low, medium [default medium]  context: 272000',
        'gpt-5.1-codex-mini  (GPT-5.1 Codex Mini)',
      ]);
      expect(res.stderr).toContain('2 models from codex-subscription');
      const current = storedDocument().tokens.access_token as string;
      for (const secret of [current, accountId]) expect(res.stdout + res.stderr).not.toContain(secret);
      expect(backend().requestsTo(codexPaths.models.split('?')[0]!).at(-1)?.headers).toMatchObject({
        authorization: `Bearer ${current}`,
        'chatgpt-account-id': accountId,
      });
    });

    it('`helix models` without a login says how to log in, and exits 1', { timeout: ceilingFor(1) }, async () => {
      const res = await runCli(['models', '--provider', 'codex-subscription'], {
        HELIX_HOME: join(dir, 'empty-home'),
        HELIX_CODEX_TEST_ORIGIN: codex.origin,
      });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('run `helix login codex`');
    });
  });
});
