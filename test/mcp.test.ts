import { request as httpRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyOutcome } from '../src/domain/turn.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp, rawMcp } from './support/mcpClient.js';
import { storeFlavours } from './support/stores.js';

const RUN_TOOLS = [
  'helix_run_start',
  'helix_run_continue',
  'helix_run_cancel',
  'helix_run_inspect',
  'helix_run_fetch_evidence',
  'helix_run_list_events',
];
/** ATP-14: the six agent-task tools are in every full catalog (docs/agent-tasks.md). */
const AGENT_TASK_TOOLS = [
  'helix_agent_task_list',
  'helix_agent_task_claim',
  'helix_agent_task_call_tool',
  'helix_agent_task_read_asset',
  'helix_agent_task_complete',
  'helix_agent_task_release',
  // ATP-26..ATP-30: the person's answer in the reference's shape.
  'helix_run_answer',
];
/** MCP-01, DSC-04: the full catalog on `/mcp` holds the room tools too (MRT-01..10). */
const ALL_TOOLS = [
  ...RUN_TOOLS,
  ...AGENT_TASK_TOOLS,
  'helix_room_list',
  'helix_room_inspect',
  'helix_room_create',
  'helix_room_bind_run',
  'helix_room_claim_chat_binding',
  'helix_room_unbind_run',
  'helix_room_unbind_chat',
  'helix_room_command_request',
  'helix_room_source_list',
  'helix_room_source_create',
  // DC-04, D-03: the Device Check tool is in the full catalog too.
  'helix_environment_device_check',
  // MC-01..MC-05: the embodiment tools (docs/embodiment.md).
  'helix_environment_subject_list',
  'helix_environment_subject_select',
  'helix_minecraft_player_action',
  'helix_minecraft_workflow_status',
  'helix_minecraft_workflow_control',
];

/** fetch() may not set Host; node:http can, which is what a DNS-rebinding attacker's browser sends. */
const postWithHost = (url: string, host: string, headers: Record<string, string>, body: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });

type ToolResult = {
  isError?: boolean;
  structuredContent?: any;
  content: { type: string; text: string }[];
  _meta?: Record<string, unknown>;
};

describe.each(storeFlavours())('MCP /mcp on $name', (flavour) => {
  let h: TestHelix;
  let token: string;
  let client: Client;
  const call = async (c: Client, name: string, args: Record<string, unknown>) =>
    (await c.callTool({ name, arguments: args })) as ToolResult;

  beforeAll(async () => {
    h = await startTestHelix(flavour, { executor: new ScriptedExecutor([], emptyOutcome()) });
    token = await h.key();
    client = await connectMcp(h.url, token);
  });
  afterAll(async () => {
    await client.close();
    await h.close();
  });

  it('lists the complete catalog with input and output schemas and declared scopes', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const raw = await rawMcp(
      h.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${token}` },
    );
    const start = raw.body.result.tools.find((t: { name: string }) => t.name === 'helix_run_start');
    // Issue 14 item 3, MCP-02: the complete set, the data scopes a start may name included; issue 27
    // item 17: only those whose sources are configured here (the library; no web, scholarly,
    // repository or theory-registry source in this harness), see test/advertisedScopes.test.ts.
    expect(start.securitySchemes).toEqual([
      {
        type: 'oauth2',
        scopes: [
          'helix.agent_runs.write',
          'helix.data.research_library.read',
          // BRE-01, PRB-01: the room lanes are entitled by the room read scope.
          'helix.rooms.read',
        ],
      },
    ]);
    expect(start._meta.securitySchemes).toEqual(start.securitySchemes);
    expect(start.inputSchema.required).toEqual(['idempotency_key', 'request']);
    const inspect = raw.body.result.tools.find((t: { name: string }) => t.name === 'helix_run_inspect');
    expect(inspect.securitySchemes[0].scopes).toEqual(['helix.agent_runs.read']);
    // Output schemas come from the same zod schemas as REST: the answer's writer is declared on both.
    const fetchEvidence = raw.body.result.tools.find((t: { name: string }) => t.name === 'helix_run_fetch_evidence');
    const success = (tool: {
      outputSchema: { anyOf: { properties: Record<string, unknown>; required: string[] }[] };
    }) => tool.outputSchema.anyOf[0]!;
    expect(success(fetchEvidence).required).toContain('terminal_candidate_writer');
    expect(JSON.stringify(success(inspect).properties.latest_result)).toContain('"writer"');
  });

  it('a read-only token still sees the complete catalog', async () => {
    const reader = await connectMcp(h.url, await h.key('helix.agent_runs.read'));
    expect((await reader.listTools()).tools).toHaveLength(ALL_TOOLS.length);
    await reader.close();
  });

  it('drives a full run: start, continue, inspect, events, evidence, cancel — text JSON and structuredContent', async () => {
    const started = await call(client, 'helix_run_start', {
      idempotency_key: idemKey('mcp'),
      request: { objective: 'MCP objective' },
    });
    expect(started.isError).toBeFalsy();
    expect(JSON.parse(started.content[0]!.text)).toEqual(started.structuredContent);
    expect(started.structuredContent).toMatchObject({
      schema: 'helix.agent_run.v1',
      version: 1,
      lifecycle_status: 'waiting',
      answer_authority: false,
    });
    expect(started._meta).toEqual({ 'helix/idempotency_replayed': false });
    const runId = started.structuredContent.run_id;

    const continued = await call(client, 'helix_run_continue', {
      run_id: runId,
      idempotency_key: idemKey(),
      request: { expected_version: 1, instruction: 'look' },
    });
    expect(continued.structuredContent).toMatchObject({ version: 3, budget: { steps_used: 1 } });

    const inspected = await call(client, 'helix_run_inspect', { run_id: runId });
    expect(inspected.structuredContent.version).toBe(3);
    const events = await call(client, 'helix_run_list_events', { run_id: runId, after_seq: 1, limit: 2 });
    expect(events.structuredContent).toMatchObject({ next_after_seq: 3, has_more: true });
    expect(events.structuredContent.events.map((e: { seq: number }) => e.seq)).toEqual([2, 3]);
    const evidence = await call(client, 'helix_run_fetch_evidence', { run_id: runId });
    expect(evidence.structuredContent.schema).toBe('helix.agent_run.evidence_bundle.v1');
    // The turn proposed no answer: no writer, on the run and on the bundle.
    expect(inspected.structuredContent.latest_result.writer).toBeNull();
    expect(evidence.structuredContent).toMatchObject({ terminal_candidate_writer: null, evidence_refs: [] });
    const cancelled = await call(client, 'helix_run_cancel', {
      run_id: runId,
      idempotency_key: idemKey(),
      request: { expected_version: 3, reason: 'done' },
    });
    expect(cancelled.structuredContent).toMatchObject({ lifecycle_status: 'cancelled', version: 4 });

    // The same service and store as REST.
    const viaRest = await api(h.url, 'GET', `/api/v1/agent-runs/${runId}`, { token });
    expect(viaRest.body.version).toBe(4);
  });

  it('replays an idempotent start and refuses a different request under the same key', async () => {
    const key = idemKey('mcp-replay');
    const first = await call(client, 'helix_run_start', { idempotency_key: key, request: { objective: 'once' } });
    const again = await call(client, 'helix_run_start', { idempotency_key: key, request: { objective: 'once' } });
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again._meta).toEqual({ 'helix/idempotency_replayed': true });
    const conflict = await call(client, 'helix_run_start', { idempotency_key: key, request: { objective: 'twice' } });
    expect(conflict.isError).toBe(true);
    expect(conflict.structuredContent).toMatchObject({
      schema: 'helix.agent_api.error.v1',
      code: 'idempotency_conflict',
    });
  });

  it('reports a stale version, bad arguments and unknown tools as structured errors with ADR-0004 numbers', async () => {
    const started = await call(client, 'helix_run_start', {
      idempotency_key: idemKey(),
      request: { objective: 'errors' },
    });
    const runId = started.structuredContent.run_id;
    const stale = await call(client, 'helix_run_continue', {
      run_id: runId,
      idempotency_key: idemKey(),
      request: { expected_version: 9, instruction: 'x' },
    });
    expect(stale).toMatchObject({
      isError: true,
      structuredContent: { code: 'version_conflict', current_version: 1, adr_code: -32011 },
    });
    const badRequest = await call(client, 'helix_run_start', {
      idempotency_key: idemKey(),
      request: { objective: 'x', status: 'completed' },
    });
    expect(badRequest.structuredContent.code).toBe('invalid_request');
    const unknownArg = await call(client, 'helix_run_inspect', { run_id: runId, owner: 'me' });
    expect(unknownArg.structuredContent.code).toBe('invalid_request');
    const noKey = await call(client, 'helix_run_start', { request: { objective: 'x' } });
    expect(noKey.structuredContent.code).toBe('idempotency_key_required');
    const badRun = await call(client, 'helix_run_inspect', { run_id: 'nope' });
    expect(badRun.structuredContent.code).toBe('invalid_run_id');
    const unknownTool = await call(client, 'helix_run_teleport', {});
    expect(unknownTool).toMatchObject({
      isError: true,
      structuredContent: { code: 'tool_not_found', adr_code: -32008 },
    });
  });

  it("another owner's run is not_found, identical to a missing run", async () => {
    const started = await call(client, 'helix_run_start', {
      idempotency_key: idemKey(),
      request: { objective: 'mine' },
    });
    const stranger = await connectMcp(h.url, await h.key(undefined, 'tenant-b', 'account-b'));
    const theirs = await call(stranger, 'helix_run_inspect', { run_id: started.structuredContent.run_id });
    const missing = await call(stranger, 'helix_run_inspect', { run_id: 'run_doesnotexist1' });
    expect(theirs.structuredContent).toEqual(missing.structuredContent);
    expect(theirs.structuredContent.code).toBe('not_found');
    const cancel = await call(stranger, 'helix_run_cancel', {
      run_id: started.structuredContent.run_id,
      idempotency_key: idemKey(),
      request: { expected_version: 1 },
    });
    expect(cancel.structuredContent.code).toBe('not_found');
    await stranger.close();
  });

  it('a call without the needed scope returns insufficient_scope with an RFC 6750 challenge in _meta', async () => {
    const reader = await connectMcp(h.url, await h.key('helix.agent_runs.read'));
    const res = await call(reader, 'helix_run_start', { idempotency_key: idemKey(), request: { objective: 'x' } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({
      code: 'insufficient_scope',
      scope: 'helix.agent_runs.write',
      adr_code: -32001,
    });
    expect(res._meta?.['mcp/www_authenticate']).toEqual([
      `Bearer error="insufficient_scope", scope="helix.agent_runs.write", resource_metadata="${h.url}/.well-known/oauth-protected-resource/mcp"`,
    ]);
    await reader.close();
  });

  it('an unauthenticated request is a 401 with the MCP resource metadata challenge', async () => {
    const res = await rawMcp(h.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${h.url}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('serves RFC 9728 protected-resource metadata', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await api(h.url, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ resource: `${h.url}/mcp`, bearer_methods_supported: ['header'] });
      expect(res.body.scopes_supported).toContain('helix.agent_runs.write');
    }
  });

  it('answers GET and DELETE with 405 and issues no session id', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${h.url}/mcp`, { method, headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
    const init = await rawMcp(
      h.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
      { authorization: `Bearer ${token}` },
    );
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
  });

  it('serves clients that accept only application/json', async () => {
    const res = await rawMcp(
      h.url,
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
      { authorization: `Bearer ${token}`, accept: 'application/json' },
    );
    expect(res.status).toBe(200);
    expect(res.body.result.tools).toHaveLength(ALL_TOOLS.length);
  });

  it('preflights the envelope: credential-shaped ids, names, arguments and unknown keys get a static error with id null', async () => {
    const secret = `hlx_${'S'.repeat(43)}`;
    const auth = { authorization: `Bearer ${token}` };
    for (const body of [
      { jsonrpc: '2.0', id: secret, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: secret, arguments: {} } },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'helix_run_start',
          arguments: { idempotency_key: 'abcdefgh1', request: { objective: `use ${secret}` } },
        },
      },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'helix_run_inspect', arguments: { [secret]: 1 } },
      },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', extra: true },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'helix_run_inspect', arguments: {}, sneaky: 1 } },
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ]) {
      const res = await rawMcp(h.url, body, auth);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
      expect(res.text).not.toContain(secret);
    }
  });

  it('rejects a foreign Host (DNS rebinding) and a foreign Origin with 403', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const evilHost = await postWithHost(
      `${h.url}/mcp`,
      'evil.example.com',
      { ...auth, 'content-type': 'application/json' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    );
    expect(evilHost).toBe(403);
    const restEvilHost = await postWithHost(
      `${h.url}/api/v1/agent-runs`,
      'evil.example.com:80',
      { ...auth, 'content-type': 'application/json', 'idempotency-key': idemKey() },
      '{"objective":"x"}',
    );
    expect(restEvilHost).toBe(403);
    const evilOrigin = await rawMcp(
      h.url,
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { ...auth, origin: 'https://evil.example' },
    );
    expect(evilOrigin.status).toBe(403);
    expect(evilOrigin.body.code).toBe('forbidden_origin');
    const localOrigin = await rawMcp(
      h.url,
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { ...auth, origin: 'http://localhost:5173' },
    );
    expect(localOrigin.status).toBe(200);
  });
});
