import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountPolicies } from '../src/accounts/accountPolicies.js';
import { loadInstanceSecret } from '../src/auth/instanceSecret.js';
import { accountPolicyDefaults } from '../src/config/accountPolicyConfig.js';
import { emptyOutcome } from '../src/domain/turn.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { acceptConsent } from '../src/service/rooms/acceptConsent.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { accountDeps } from './support/accounts.js';
import { idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp, rawMcp } from './support/mcpClient.js';
import { serverStoreFlavours } from './support/stores.js';
import { createAdapterRegistry } from '../src/domain/environmentAdapterRegistry.js';

// Issue 14: the Shared Live Room tools on /mcp, driven by the official SDK client against a real server.
const ENV = { HELIX_ACCOUNT_DEFAULT_FEATURES: 'shared_live_room', HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0' };
const ALL = 'helix.agent_runs.read helix.agent_runs.write helix.rooms.read helix.rooms.manage';
const MANAGE_AND_WRITE = ['helix.rooms.manage', 'helix.agent_runs.write'];
const ROOM_TOOL_SCOPES: Record<string, string[]> = {
  helix_room_list: ['helix.rooms.read'],
  helix_room_inspect: ['helix.rooms.read'],
  helix_room_create: ['helix.rooms.manage'],
  helix_room_bind_run: MANAGE_AND_WRITE,
  helix_room_claim_chat_binding: MANAGE_AND_WRITE,
  helix_room_unbind_run: MANAGE_AND_WRITE,
  helix_room_unbind_chat: MANAGE_AND_WRITE,
  helix_room_command_request: ['helix.rooms.manage'],
  helix_room_source_list: ['helix.room_sources.manage'],
  helix_room_source_create: ['helix.room_sources.manage'],
};
const HANDLE = `hlxclm_${'Q'.repeat(43)}`;
const INVALID_ENVELOPE = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } };

type ToolResult = {
  isError?: boolean;
  structuredContent?: any;
  content: { type: string; text: string }[];
  _meta?: Record<string, any>;
};

interface Member {
  readonly accountId: string;
  readonly token: string;
  readonly client: Client;
}

const call = async (member: Member, name: string, args: Record<string, unknown> = {}) =>
  (await member.client.callTool({ name, arguments: args })) as ToolResult;

/** MCP-05: a success carries the same JSON as text and as structuredContent. */
const ok = (result: ToolResult) => {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
  return result.structuredContent;
};

/** MCP-05: a failure is isError with the structured helix.agent_api.error.v1 body. */
const refused = (result: ToolResult) => {
  expect(result.isError).toBe(true);
  expect(result.structuredContent.schema).toBe('helix.agent_api.error.v1');
  expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
  return result.structuredContent;
};

describe.each(serverStoreFlavours())('Shared Live Room tools on /mcp ($name)', (flavour) => {
  let h: TestHelix;
  let deps: RoomDeps;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  const clients: Client[] = [];

  const member = async (name: string, scopes = ALL): Promise<Member> => {
    const { accountId } = await createAccount(await accountDeps(h.testStore.store), { displayName: name });
    const token = await h.key(scopes, 'tenant-a', accountId);
    const client = await connectMcp(h.url, token);
    clients.push(client);
    return { accountId, token, client };
  };
  const startRun = async (m: Member): Promise<string> =>
    ok(await call(m, 'helix_run_start', { idempotency_key: idemKey('run'), request: { objective: 'Room run' } }))
      .run_id;
  const createRoom = async (m: Member, title = 'Build site'): Promise<string> =>
    ok(await call(m, 'helix_room_create', { idempotency_key: idemKey('room'), request: { title } })).room.room_id;
  /** D-09 through the console use cases on the same store: alice invites, the member joins and consents. */
  const join = async (roomId: string, m: Member, role = 'member') => {
    const { token } = await createInvite(deps, alice.accountId, roomId, { role });
    const joined = await acceptInvite(deps, m.accountId, token);
    await acceptConsent(deps, m.accountId, roomId, joined.consent.version);
  };
  const setRoomFeature = async (m: Member, enabled: boolean | null) =>
    changeAccountPolicy(await accountDeps(h.testStore.store), accountPolicyDefaults(ENV), m.accountId, {
      features: { shared_live_room: enabled },
    });
  const rawCall = (token: string, name: string, args: unknown, id: unknown = 1) =>
    rawMcp(
      h.url,
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
      { authorization: `Bearer ${token}` },
    );

  beforeAll(async () => {
    h = await startTestHelix(flavour, { executor: new ScriptedExecutor([], emptyOutcome()), env: ENV });
    const store = h.testStore.store;
    deps = {
      store,
      instanceSecret: await loadInstanceSecret(store),
      policies: new AccountPolicies(store, accountPolicyDefaults(ENV)),
      receiptTtlMs: 86_400_000,
      adapters: createAdapterRegistry({ fixturesEnabled: false }),
      now: Date.now,
    };
    alice = await member('Alice');
    bob = await member('Bob');
    carol = await member('Carol');
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await h.close();
  });

  it('MCP-01, MCP-02, MCP-05, DSC-04: tools/list holds the 8 room tools with complete scope sets and outputSchemas, whatever the token', async () => {
    const runsOnly = await h.key('helix.agent_runs.read', 'tenant-a', alice.accountId);
    const raw = await rawMcp(
      h.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${runsOnly}` },
    );
    const tools = raw.body.result.tools as any[];
    const rooms = tools.filter((t) => t.name.startsWith('helix_room_'));
    // MRT-08/09 (the room-source tools) arrive with the source issue.
    expect(rooms.map((t) => t.name).sort()).toEqual(Object.keys(ROOM_TOOL_SCOPES).sort());
    for (const tool of rooms) {
      const expected = [{ type: 'oauth2', scopes: ROOM_TOOL_SCOPES[tool.name] }];
      expect(tool.securitySchemes, tool.name).toEqual(expected);
      expect(tool._meta.securitySchemes, tool.name).toEqual(expected);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema.type).toBe('object');
      const branches = tool.outputSchema.anyOf.map((b: any) => b.properties.schema.const);
      expect(branches.at(-1), tool.name).toBe('helix.agent_api.error.v1');
    }
    const byName = (name: string) => rooms.find((t) => t.name === name);
    expect(byName('helix_room_create').inputSchema.required).toEqual(['idempotency_key', 'request']);
    expect(byName('helix_room_bind_run').outputSchema.anyOf[0].properties.schema.const).toBe(
      'helix.shared_live_room.run_bind_receipt.v1',
    );
    expect(byName('helix_room_unbind_run').annotations.destructiveHint).toBe(true);
    expect(byName('helix_room_list').annotations.readOnlyHint).toBe(true);
    expect(byName('helix_room_command_request').annotations.readOnlyHint).toBe(false);
    // MRT-10: the disabled command never succeeds, so only the error body is published.
    expect(byName('helix_room_command_request').outputSchema.anyOf).toHaveLength(1);
  });

  it('MRT-03, MCP-04, SLR-03: create is idempotent by its idempotency_key argument, never by the JSON-RPC id', async () => {
    const key = idemKey('create');
    const first = await call(alice, 'helix_room_create', { idempotency_key: key, request: { title: ' Lab ' } });
    expect(ok(first)).toMatchObject({
      schema: 'helix.shared_live_room.create_receipt.v1',
      room: { title: 'Lab', status: 'active', membership: { role: 'owner', consent_current: true } },
      answer_authority: false,
      terminal_eligible: false,
    });
    expect(first._meta?.['helix/idempotency_replayed']).toBe(false);
    const again = await call(alice, 'helix_room_create', { idempotency_key: key, request: { title: ' Lab ' } });
    expect(ok(again).room.room_id).toBe(first.structuredContent.room.room_id);
    expect(again._meta?.['helix/idempotency_replayed']).toBe(true);
    expect(
      refused(await call(alice, 'helix_room_create', { idempotency_key: key, request: { title: 'Other' } })).code,
    ).toBe('idempotency_conflict');
    // The same JSON-RPC id with two keys makes two rooms; no key at all is refused.
    const a = await rawCall(
      alice.token,
      'helix_room_create',
      { idempotency_key: idemKey('id'), request: { title: 'A' } },
      7,
    );
    const b = await rawCall(
      alice.token,
      'helix_room_create',
      { idempotency_key: idemKey('id'), request: { title: 'B' } },
      7,
    );
    expect(a.body.result.structuredContent.room.room_id).not.toBe(b.body.result.structuredContent.room.room_id);
    expect(refused(await call(alice, 'helix_room_create', { request: { title: 'No key' } })).code).toBe(
      'idempotency_key_required',
    );
    expect(
      refused(await call(alice, 'helix_room_create', { idempotency_key: 'short', request: { title: 'x' } })).code,
    ).toBe('idempotency_key_required');
  });

  it('MRT-01, MRT-02, MRT-04, MRT-06, MRT-10: create, invite and consent, bind, unbind, rebind with a new ref, command refused', async () => {
    const roomId = await createRoom(alice);
    expect(ok(await call(bob, 'helix_room_list')).rooms.map((r: any) => r.room_id)).not.toContain(roomId);
    expect(refused(await call(bob, 'helix_room_inspect', { room_id: roomId })).code).toBe('not_found');

    const { token } = await createInvite(deps, alice.accountId, roomId, { role: 'member' });
    const joined = await acceptInvite(deps, bob.accountId, token);
    const runId = await startRun(bob);
    // D-09: a member binds only after accepting the current consent.
    expect(refused(await call(bob, 'helix_room_bind_run', { request: { room_id: roomId, run_id: runId } })).code).toBe(
      'room_consent_required',
    );
    await acceptConsent(deps, bob.accountId, roomId, joined.consent.version);

    const listed = ok(await call(bob, 'helix_room_list'));
    expect(listed.schema).toBe('helix.shared_live_room.list_receipt.v1');
    expect(listed.rooms.find((r: any) => r.room_id === roomId)?.membership).toMatchObject({
      role: 'member',
      consent_current: true,
    });
    expect(ok(await call(bob, 'helix_room_inspect', { room_id: roomId })).room.title).toBe('Build site');

    const bound = ok(await call(bob, 'helix_room_bind_run', { request: { room_id: roomId, run_id: runId } }));
    expect(bound).toMatchObject({
      schema: 'helix.shared_live_room.run_bind_receipt.v1',
      binding_status: 'active',
      room_id: roomId,
      run_id: runId,
      participant_role: 'member',
      consent_version: joined.consent.version,
      answer_authority: false,
    });
    expect(bound.binding_ref).toMatch(/^rrb_[0-9a-f]{32}$/);
    expect(bound.consent_receipt_ref).toMatch(/^rcr_[0-9a-f]{32}$/);
    // An exact retry returns the same binding.
    const retried = ok(await call(bob, 'helix_room_bind_run', { request: { room_id: roomId, run_id: runId } }));
    expect(retried.binding_ref).toBe(bound.binding_ref);

    const unbound = ok(await call(bob, 'helix_room_unbind_run', { binding_ref: bound.binding_ref }));
    expect(unbound).toEqual({
      schema: 'helix.shared_live_room.run_unbind_receipt.v1',
      binding_ref: bound.binding_ref,
      binding_status: 'revoked',
      revocation_status: 'revoked',
      answer_authority: false,
      assistant_answer: false,
      terminal_eligible: false,
      raw_content_included: false,
    });
    expect(ok(await call(bob, 'helix_room_unbind_run', { binding_ref: bound.binding_ref })).revocation_status).toBe(
      'already_revoked',
    );
    const rebound = ok(await call(bob, 'helix_room_bind_run', { request: { room_id: roomId, run_id: runId } }));
    expect(rebound.binding_ref).not.toBe(bound.binding_ref);

    const command = refused(
      await call(bob, 'helix_room_command_request', { request: { room_id: roomId, command: 'time set day' } }),
    );
    expect(command).toMatchObject({ code: 'command_execution_not_enabled', status: 501, execution_enabled: false });
    expect(refused(await call(bob, 'helix_room_command_request', { request: { command: 'x' } }))).toMatchObject({
      code: 'invalid_request',
      issues: [{ path: 'room_id', message: 'required' }],
    });
    expect(refused(await call(bob, 'helix_room_inspect', {})).code).toBe('invalid_request');
  });

  it('SLR-13, MCP-06: insufficient_scope is an error result whose _meta["mcp/www_authenticate"] names every missing scope', async () => {
    const reader = await member('Reader', 'helix.rooms.read');
    const result = await call(reader, 'helix_room_bind_run', {
      request: { room_id: `room_${'0'.repeat(24)}`, run_id: 'run_nothing0001' },
    });
    expect(refused(result)).toMatchObject({
      code: 'insufficient_scope',
      status: 403,
      scope: 'helix.rooms.manage helix.agent_runs.write',
    });
    const [challenge] = result._meta!['mcp/www_authenticate'] as string[];
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="helix.rooms.manage helix.agent_runs.write"');
    expect(challenge).toContain('resource_metadata="');
    // Visible in the catalog, but not callable without its scope (MCP-01).
    const list = await call(await member('Runner', 'helix.agent_runs.read'), 'helix_room_list');
    expect(refused(list).scope).toBe('helix.rooms.read');
    expect(list._meta?.['mcp/www_authenticate']?.[0]).toContain('scope="helix.rooms.read"');
  });

  it('RREST-03, WD-02: another account sees the room, run and binding as not found', async () => {
    const roomId = await createRoom(alice);
    await join(roomId, bob);
    const bobRun = await startRun(bob);
    const binding = ok(await call(bob, 'helix_room_bind_run', { request: { room_id: roomId, run_id: bobRun } }));
    const carolRun = await startRun(carol);
    expect(refused(await call(carol, 'helix_room_inspect', { room_id: roomId })).code).toBe('not_found');
    expect(
      refused(await call(carol, 'helix_room_bind_run', { request: { room_id: roomId, run_id: carolRun } })).code,
    ).toBe('not_found');
    expect(
      refused(await call(carol, 'helix_room_bind_run', { request: { room_id: roomId, run_id: bobRun } })).code,
    ).toBe('not_found');
    expect(refused(await call(carol, 'helix_room_unbind_run', { binding_ref: binding.binding_ref })).code).toBe(
      'not_found',
    );
    expect(
      refused(await call(carol, 'helix_room_command_request', { request: { room_id: roomId, command: 'x' } })).code,
    ).toBe('not_found');
    // The binding stayed active: bob can still withdraw it.
    expect(ok(await call(bob, 'helix_room_unbind_run', { binding_ref: binding.binding_ref })).revocation_status).toBe(
      'revoked',
    );
  });

  it('SLR-08, MRT-12: a credential-shaped title is refused by the preflight with the static error and id null', async () => {
    const before = ok(await call(alice, 'helix_room_list')).rooms.length;
    for (const title of [`hlx_${'k'.repeat(43)}`, `Room sk-${'a'.repeat(24)}`, HANDLE]) {
      const res = await rawCall(
        alice.token,
        'helix_room_create',
        { idempotency_key: idemKey('cred'), request: { title } },
        9,
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_ENVELOPE);
      expect(res.text).not.toContain(title);
    }
    expect(ok(await call(alice, 'helix_room_list')).rooms).toHaveLength(before);
  });

  it('MRT-05, MRT-12, SLR-10: the chat claim handle is admitted only as request.claim_handle of the claim tool', async () => {
    const runId = await startRun(bob);
    const admitted = await rawCall(bob.token, 'helix_room_claim_chat_binding', {
      request: { claim_handle: HANDLE, run_id: runId },
    });
    expect(admitted.status).toBe(200);
    expect(admitted.body.result.isError).toBe(true);
    // No browser lane issues handles yet, so an admitted handle is unknown; it is never echoed.
    expect(admitted.body.result.structuredContent.code).toBe('chat_claim_not_found');
    expect(admitted.text).not.toContain(HANDLE);
    expect(
      refused(await call(bob, 'helix_room_claim_chat_binding', { request: { claim_handle: HANDLE, run_id: runId } }))
        .code,
    ).toBe('chat_claim_not_found');

    const elsewhere = [
      rawCall(bob.token, 'helix_room_bind_run', { request: { room_id: HANDLE, run_id: runId } }),
      rawCall(bob.token, 'helix_room_create', { idempotency_key: HANDLE, request: { title: 'x' } }),
      rawCall(bob.token, 'helix_room_claim_chat_binding', { request: { claim_handle: HANDLE, run_id: HANDLE } }),
      rawCall(bob.token, 'helix_room_claim_chat_binding', { claim_handle: HANDLE }),
      rawCall(bob.token, 'helix_room_claim_chat_binding', { request: { claim_handle: HANDLE, run_id: runId } }, HANDLE),
    ];
    for (const res of await Promise.all(elsewhere)) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_ENVELOPE);
    }
  });

  it('MRT-11, SLR-11: after the policy lock reads, binds and claims are refused, withdrawals still work', async () => {
    const roomId = await createRoom(alice);
    await join(roomId, bob);
    const runId = await startRun(bob);
    const binding = ok(await call(bob, 'helix_room_bind_run', { request: { room_id: roomId, run_id: runId } }));
    await setRoomFeature(bob, false);
    try {
      const locked = { code: 'feature_not_enabled', feature: 'shared_live_room' };
      expect(refused(await call(bob, 'helix_room_list'))).toMatchObject(locked);
      expect(refused(await call(bob, 'helix_room_inspect', { room_id: roomId }))).toMatchObject(locked);
      expect(
        refused(await call(bob, 'helix_room_bind_run', { request: { room_id: roomId, run_id: runId } })),
      ).toMatchObject(locked);
      expect(
        refused(await call(bob, 'helix_room_claim_chat_binding', { request: { claim_handle: HANDLE, run_id: runId } })),
      ).toMatchObject(locked);
      // Not a scope failure: no step-up challenge.
      expect((await call(bob, 'helix_room_list'))._meta).toBeUndefined();
      expect(ok(await call(bob, 'helix_room_unbind_run', { binding_ref: binding.binding_ref })).revocation_status).toBe(
        'revoked',
      );
      expect(refused(await call(bob, 'helix_room_unbind_chat', { binding_ref: `rcb_${'0'.repeat(32)}` })).code).toBe(
        'not_found',
      );
    } finally {
      await setRoomFeature(bob, null);
    }
  });
});
