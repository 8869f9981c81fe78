import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, redactor } from '../scripts/deploymentProbe/redact.js';
import { geminiInteractions } from '../scripts/providerConformance/geminiInteractions.js';
import { openaiResponses } from '../scripts/providerConformance/openaiResponses.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { startMcpProviderFixture, type FixtureMode, type McpProviderFixture } from './support/mcpProviderFixture.js';
import { LOOPBACK_OPT_IN, runProbeScript, type ProbeRun } from './support/probeProcess.js';
import { storedRuns, type StoredRun } from './support/storedRuns.js';
import { storeFlavours } from './support/stores.js';

/**
 * docs/spec/shared-live-room-requirements.md PCP-06/PCP-07 end to end: the probe makes one provider invocation against a loopback fixture
 * that speaks the provider's wire format and really calls helix_run_start on a real Helix through
 * the official MCP SDK client, with the authorization the probe handed the provider.
 */
const KEYS = {
  openai: 'sk-proj-invocationTestKey0123456789abcdefXYZW',
  gemini: 'AIzaSyInvocationTestKey_0123456789abcd',
} as const;
type Provider = keyof typeof KEYS;
const KEY_VARIABLE = { openai: 'OPENAI_API_KEY', gemini: 'GEMINI_API_KEY' } as const;
const ORIGIN_VARIABLE = {
  openai: 'HELIX_MCP_CONFORMANCE_OPENAI_BASE_URL',
  gemini: 'HELIX_MCP_CONFORMANCE_GEMINI_BASE_URL',
} as const;

describe('mcp:provider-conformance provider invocations (loopback fixtures, real Helix)', () => {
  let h: TestHelix;
  let token: string;
  let fixture: McpProviderFixture | undefined;

  beforeAll(async () => {
    h = await startTestHelix(storeFlavours().find((f) => f.name === 'sqlite')!);
    token = await h.key();
  });
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });
  afterAll(async () => {
    await h.close();
  });

  /** Runs the probe with one provider pointed at a fresh fixture; answers the run and the runs it created. */
  const probeWith = async (
    provider: Provider,
    mode: FixtureMode,
    accessToken = token,
  ): Promise<{ run: ProbeRun; created: StoredRun[] }> => {
    fixture = await startMcpProviderFixture(provider, KEYS[provider], mode);
    const before = new Set((await storedRuns(h)).map((r) => r.runId));
    const run = await runProbeScript('scripts/mcpProviderConformance.ts', {
      CASIMIRBOT_MCP_PUBLIC_BASE_URL: h.url,
      ...LOOPBACK_OPT_IN,
      CASIMIRBOT_MCP_ACCESS_TOKEN: accessToken,
      [KEY_VARIABLE[provider]]: KEYS[provider],
      [ORIGIN_VARIABLE[provider]]: fixture.origin,
    });
    const created = (await storedRuns(h)).filter((r) => !before.has(r.runId));
    return { run, created };
  };

  const expectNoCredential = (run: ProbeRun, ...secrets: string[]) => {
    for (const secret of [token, KEYS.openai, KEYS.gemini, ...secrets]) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
  };

  it.each<Provider>(['openai', 'gemini'])(
    '%s: one invocation starts exactly one 60 s, one-step run, never continued, then cancels it',
    async (provider) => {
      const { run, created } = await probeWith(provider, 'call');
      expect(run.code, run.stderr).toBe(0);
      expect(fixture!.problems).toEqual([]);
      expect(fixture!.requests).toHaveLength(1);
      expect(run.status(`provider.${provider}`)).toBe('passed');
      expect(run.status(`provider.${provider}.run_cancelled`)).toBe('passed');
      expect(run.status(provider === 'openai' ? 'provider.gemini' : 'provider.openai')).toBe('not_configured');
      expect(created).toHaveLength(1);
      const [started] = created;
      expect(started).toMatchObject({
        maxSteps: 1,
        expiresInSeconds: 60,
        lifetimeMs: 60_000,
        stepsUsed: 0,
        lifecycle: 'cancelled',
      });
      expect(started!.eventKinds).toEqual(['run.started', 'run.cancelled']);
      expect(run.detail(`provider.${provider}`)).toContain(
        `run ${started!.runId} started at version 1, waiting, max_steps 1`,
      );
      // The provider got the Helix token to reach Helix with; it never appears in what the probe prints.
      const body = fixture!.requests[0]!.body;
      expect(JSON.stringify(body)).toContain(token);
      expectNoCredential(run);
    },
  );

  it.each<Provider>(['openai', 'gemini'])(
    '%s: a provider error fails the check with a bounded, redacted reason and starts no run',
    async (provider) => {
      const { run, created } = await probeWith(provider, 'http_error');
      expect(run.code).toBe(1);
      expect(run.status(`provider.${provider}`)).toBe('failed');
      expect(run.status(`provider.${provider}.run_cancelled`)).toBe('skipped');
      const detail = run.detail(`provider.${provider}`)!;
      if (provider === 'openai') {
        expect(detail).toBe(
          `OpenAI Responses answered HTTP 401 invalid_api_key: Incorrect API key provided: ${REDACTED}.`,
        );
      } else {
        expect(detail).toBe(
          'Gemini Interactions answered HTTP 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key.',
        );
      }
      expect(created).toEqual([]);
      // OpenAI quotes the key masked: its visible ends are not printed either.
      expectNoCredential(run, `${KEYS.openai.slice(0, 8)}****`, `****${KEYS.openai.slice(-4)}`);
    },
  );

  it.each<Provider>(['openai', 'gemini'])('%s: an answer without the tool call fails the check', async (provider) => {
    const { run, created } = await probeWith(provider, 'no_call');
    expect(run.code).toBe(1);
    expect(fixture!.problems).toEqual([]);
    expect(run.status(`provider.${provider}`)).toBe('failed');
    expect(run.detail(`provider.${provider}`)).toMatch(
      /reported no helix_run_start call \(status completed; (output items: mcp_list_tools, message|steps: user_input, model_output)\)/,
    );
    expect(created).toEqual([]);
  });

  it('a tool error inside the answer fails the check: a read-only token cannot start a run', async () => {
    const { run, created } = await probeWith('gemini', 'call', await h.key('helix.agent_runs.read'));
    expect(run.code).toBe(1);
    expect(run.status('mcp.authenticated_initialize')).toBe('passed');
    expect(run.status('provider.gemini')).toBe('failed');
    expect(run.detail('provider.gemini')).toContain('Helix refused the start: insufficient_scope');
    expect(created).toEqual([]);
  });

  it('a token Helix refuses makes no provider call', async () => {
    const { run } = await probeWith('openai', 'call', 'hlx_notARealKeyButWellFormed0123456789');
    expect(run.code).toBe(1);
    expect(run.status('mcp.authenticated_initialize')).toBe('failed');
    expect(run.status('provider.openai')).toBe('skipped');
    expect(fixture!.requests).toEqual([]);
  });
});

describe('provider origin override (tests only)', () => {
  it.each([
    ['a non-loopback origin, even with the opt-in', 'https://api.example.com', true, 'provider_override_not_loopback'],
    ['a plain-http non-loopback origin', 'http://192.0.2.1:8080', true, 'provider_override_not_loopback'],
    ['a loopback origin without the opt-in', 'http://127.0.0.1:9', false, 'provider_override_not_opted_in'],
    ['a loopback URL with a path', 'http://127.0.0.1:9/v1', true, 'target_not_origin'],
  ])('refuses %s with exit 2 before any request', async (_name, origin, optIn, code) => {
    const fixture = await startMcpProviderFixture('openai', KEYS.openai, 'call');
    try {
      const run = await runProbeScript('scripts/mcpProviderConformance.ts', {
        CASIMIRBOT_MCP_PUBLIC_BASE_URL: optIn ? fixture.origin : 'https://helix.example.com',
        ...(optIn ? LOOPBACK_OPT_IN : {}),
        CASIMIRBOT_MCP_ACCESS_TOKEN: 'hlx_aWellFormedTokenThatIsNeverSent0123',
        OPENAI_API_KEY: KEYS.openai,
        HELIX_MCP_CONFORMANCE_OPENAI_BASE_URL: origin,
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`[${code}]`);
      expect(run.stderr).not.toContain(KEYS.openai);
      expect(fixture.requests).toEqual([]);
    } finally {
      await fixture.close();
    }
  });
});

describe('provider wire readers (answer shapes the fixtures do not produce)', () => {
  const run = { schema: 'helix.agent_run.v1', run_id: 'run_abcdefgh', version: 1 };

  it('OpenAI: a plain-string error, a typed protocol error and a failed response', () => {
    const call = (error: unknown) => ({
      type: 'mcp_call',
      id: 'mcp_1',
      server_label: 'helix',
      name: 'helix_run_start',
      arguments: '{}',
      output: null,
      error,
    });
    expect(
      openaiResponses.read({ status: 'completed', output: [call('Error retrieving tool list from MCP server')] }).calls,
    ).toEqual([{ error: 'Error retrieving tool list from MCP server' }]);
    expect(
      openaiResponses.read({
        status: 'completed',
        output: [call({ type: 'mcp_protocol_error', code: -32600, message: 'Invalid Request' })],
      }).calls,
    ).toEqual([{ error: 'mcp_protocol_error -32600: Invalid Request' }]);
    const failed = openaiResponses.read({
      status: 'failed',
      error: { code: 'server_error', message: 'boom' },
      output: [],
    });
    expect(failed).toMatchObject({ calls: [], failure: 'the response failed: server_error boom' });
    // A call to another server or another tool is not the probe's call.
    expect(
      openaiResponses.read({
        status: 'completed',
        output: [{ ...call(null), server_label: 'other', output: JSON.stringify(run) }],
      }).calls,
    ).toEqual([]);
  });

  it('OpenAI: the listing error explains a missing call', () => {
    const answer = openaiResponses.read({
      status: 'completed',
      output: [{ type: 'mcp_list_tools', server_label: 'helix', tools: [], error: 'HTTP 401' }],
    });
    expect(answer.context).toBe('status completed; output items: mcp_list_tools; mcp_list_tools failed: HTTP 401');
  });

  it('Gemini: legacy outputs, structured results, and a call without its result', () => {
    const callStep = {
      type: 'mcp_server_tool_call',
      id: 'c1',
      name: 'helix_run_start',
      server_name: 'helix',
      arguments: {},
    };
    const withResult = (result: unknown) => ({
      status: 'completed',
      outputs: [callStep, { type: 'mcp_server_tool_result', call_id: 'c1', result }],
    });
    expect(geminiInteractions.read(withResult(JSON.stringify(run))).calls).toEqual([{ output: run }]);
    expect(
      geminiInteractions.read(withResult({ content: [{ type: 'text', text: 'x' }], structuredContent: run })).calls,
    ).toEqual([{ output: run }]);
    expect(geminiInteractions.read({ status: 'completed', steps: [callStep] }).calls).toEqual([
      { error: 'no mcp_server_tool_result answered the call' },
    ]);
    expect(
      geminiInteractions.read({
        status: 'failed',
        steps: [],
        errors: [{ code: 'INTERNAL', message: 'tool server unreachable' }],
      }).failure,
    ).toBe('the interaction failed: INTERNAL tool server unreachable');
  });

  it('the redactor cuts provider key fragments a provider quotes back', () => {
    const { redactString } = redactor([]);
    expect(redactString('Incorrect API key provided: sk-proj-********************wxyz. See docs.')).toBe(
      `Incorrect API key provided: ${REDACTED}. See docs.`,
    );
    expect(redactString('key AIzaSyAbCdEf012345 is invalid')).toBe(`key ${REDACTED} is invalid`);
    expect(redactString('sk-learn and helix_run_start stay readable')).toBe(
      'sk-learn and helix_run_start stay readable',
    );
  });
});
