import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoomCreateReceiptSchema,
  RoomErrorBodySchema,
  RoomInspectReceiptSchema,
  RoomListReceiptSchema,
  RunBindReceiptSchema,
  RunUnbindReceiptSchema,
} from '../src/api/roomOutputSchemas.js';
import { featuresFrom } from '../src/domain/accountPolicy.js';
import { OAUTH_SCOPES } from '../src/domain/scopes.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import type { AccountDeps } from '../src/service/accounts/deps.js';
import { acceptConsent } from '../src/service/rooms/acceptConsent.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { accountDeps } from './support/accounts.js';
import { serverRoomDeps } from './support/roomDeps.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { serverStoreFlavours } from './support/stores.js';

const ROOMS = '/api/v1/rooms';
const RUNS = '/api/v1/agent-runs';
const ROOM_SCOPES = 'helix.rooms.read helix.rooms.manage helix.agent_runs.read helix.agent_runs.write';
const BODY_LIMIT = 2048;
const ENV = {
  HELIX_ROOM_AGENT_BODY_LIMIT: String(BODY_LIMIT),
  HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
};
const DEFAULTS = { features: featuresFrom(['model_providers']), defaultCapability: 'admit' as const, capabilities: {} };
const FLAGS = {
  answer_authority: false,
  assistant_answer: false,
  terminal_eligible: false,
  raw_content_included: false,
};
const ROOM_ERROR = 'helix.shared_live_room.error.v1';
const API_KEY = `hlx_${'A'.repeat(40)}`;

// Issue 14: the REST room facade end to end, over real HTTP, on SQLite and PostgreSQL.
describe.each(serverStoreFlavours())('the room REST facade on $name', (flavour) => {
  let h: TestHelix;
  let accounts: AccountDeps;
  let rooms: RoomDeps;
  const ids: Record<'alice' | 'bob' | 'mallory', string> = { alice: '', bob: '', mallory: '' };
  const tokens: Record<'alice' | 'bob' | 'mallory' | 'aliceOtherTenant' | 'aliceReadOnly', string> = {
    alice: '',
    bob: '',
    mallory: '',
    aliceOtherTenant: '',
    aliceReadOnly: '',
  };
  const setFeature = (accountId: string, on: boolean) =>
    changeAccountPolicy(accounts, DEFAULTS, accountId, { features: { shared_live_room: on } });

  const call = (method: string, path: string, token: string, options: Parameters<typeof api>[3] = {}) =>
    api(h.url, method, path, { token, ...options });
  const createRoomAs = async (token: string, title = 'Build site') => {
    const res = await call('POST', ROOMS, token, { idempotencyKey: idemKey('room'), body: { title } });
    expect(res.status, res.text).toBe(201);
    return res.body.room.room_id as string;
  };
  const startRunAs = async (token: string) => {
    const res = await call('POST', RUNS, token, { idempotencyKey: idemKey('run'), body: { objective: 'room run' } });
    expect(res.status, res.text).toBe(201);
    return res.body.run_id as string;
  };
  const bind = (token: string, roomId: string, runId: string) =>
    call('POST', `${ROOMS}/run-bindings`, token, { body: { room_id: roomId, run_id: runId } });

  beforeAll(async () => {
    h = await startTestHelix(flavour, { env: ENV });
    const store = h.testStore.store;
    accounts = await accountDeps(store);
    rooms = await serverRoomDeps(store, DEFAULTS);
    for (const name of ['alice', 'bob', 'mallory'] as const) {
      ids[name] = (await createAccount(accounts, { displayName: name })).accountId;
      await setFeature(ids[name], true);
      tokens[name] = await h.key(ROOM_SCOPES, 'tenant-a', ids[name]);
    }
    tokens.aliceOtherTenant = await h.key(ROOM_SCOPES, 'tenant-b', ids.alice);
    tokens.aliceReadOnly = await h.key('helix.rooms.read helix.agent_runs.read', 'tenant-a', ids.alice);
  });
  afterAll(() => h.close());

  it('RREST-01..05, RREST-10, D-09, WD-03, WD-07, WD-08: create, invite, consent, bind, withdraw, rebind, command refused', async () => {
    const key = idemKey('flow');
    const created = await call('POST', ROOMS, tokens.alice, { idempotencyKey: key, body: { title: 'Quarry' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotency-replayed')).toBe('false');
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.headers.get('x-request-id')).toBeTruthy();
    expect(created.body).toMatchObject({ schema: 'helix.shared_live_room.create_receipt.v1', ...FLAGS });
    const roomId = created.body.room.room_id as string;
    expect(created.headers.get('location')).toBe(`${ROOMS}/${roomId}`);
    const replay = await call('POST', ROOMS, tokens.alice, { idempotencyKey: key, body: { title: 'Quarry' } });
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.room.room_id).toBe(roomId);

    // The console part (D-09): alice invites bob, bob accepts the invite and the consent.
    const { token: invite } = await createInvite(rooms, ids.alice, roomId, { role: 'member' });
    const joined = await acceptInvite(rooms, ids.bob, invite);
    // Before accepting the consent, bob is a member but may not bind.
    const bobRun = await startRunAs(tokens.bob);
    expect((await bind(tokens.bob, roomId, bobRun)).body).toMatchObject({
      schema: ROOM_ERROR,
      code: 'room_consent_required',
    });
    await acceptConsent(rooms, ids.bob, roomId, joined.consent.version);

    const listed = await call('GET', ROOMS, tokens.bob);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ schema: 'helix.shared_live_room.list_receipt.v1', ...FLAGS });
    expect(listed.body.rooms.map((r: { room_id: string }) => r.room_id)).toEqual([roomId]);
    const inspected = await call('GET', `${ROOMS}/${roomId}`, tokens.bob);
    expect(inspected.body).toMatchObject({
      schema: 'helix.shared_live_room.inspect_receipt.v1',
      room: { room_id: roomId },
    });
    expect(inspected.body.room.membership.role).toBe('member');

    const bound = await bind(tokens.bob, roomId, bobRun);
    expect(bound.status).toBe(201);
    expect(bound.headers.get('idempotency-replayed')).toBe('false');
    expect(bound.body).toMatchObject({
      schema: 'helix.shared_live_room.run_bind_receipt.v1',
      room_id: roomId,
      run_id: bobRun,
      participant_role: 'member',
      consent_version: 1,
      ...FLAGS,
    });
    const ref = bound.body.binding_ref as string;
    const again = await bind(tokens.bob, roomId, bobRun);
    expect([again.status, again.body.binding_ref]).toEqual([200, ref]);

    const withdrawn = await call('DELETE', `${ROOMS}/run-bindings/${ref}`, tokens.bob);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toEqual({
      schema: 'helix.shared_live_room.run_unbind_receipt.v1',
      binding_ref: ref,
      binding_status: 'revoked',
      revocation_status: 'revoked',
      ...FLAGS,
    });
    expect(withdrawn.headers.get('idempotency-replayed')).toBe('false');
    const twice = await call('DELETE', `${ROOMS}/run-bindings/${ref}`, tokens.bob);
    expect(twice.body.revocation_status).toBe('already_revoked');

    const rebound = await bind(tokens.bob, roomId, bobRun);
    expect(rebound.status).toBe(201);
    expect(rebound.body.binding_ref).not.toBe(ref);
    const stored = await h.testStore.store.read.rooms.getActiveRunBinding(bobRun);
    expect(stored?.bindingRef).toBe(rebound.body.binding_ref);

    const command = await call('POST', `${ROOMS}/${roomId}/commands`, tokens.bob, {
      body: { room_id: roomId, command: 'dig' },
    });
    expect(command.status).toBe(501);
    expect(command.body).toMatchObject({
      schema: ROOM_ERROR,
      code: 'command_execution_not_enabled',
      status: 501,
      execution_enabled: false,
      details: { execution_enabled: false },
    });
    expect(command.headers.get('idempotency-replayed')).toBe('false');

    // The published output contract (docs/openapi.json) parses the real receipts.
    expect(RoomCreateReceiptSchema.parse(created.body)).toEqual(created.body);
    expect(RoomListReceiptSchema.parse(listed.body)).toEqual(listed.body);
    expect(RoomInspectReceiptSchema.parse(inspected.body)).toEqual(inspected.body);
    expect(RunBindReceiptSchema.parse(bound.body)).toEqual(bound.body);
    expect(RunUnbindReceiptSchema.parse(twice.body)).toEqual(twice.body);
    expect(RoomErrorBodySchema.parse(command.body)).toEqual(command.body);
  });

  it('RREST-03, WD-02: another tenant or account sees no room and no binding ref (404 not_found)', async () => {
    const roomId = await createRoomAs(tokens.alice);
    const runId = await startRunAs(tokens.alice);
    const ref = (await bind(tokens.alice, roomId, runId)).body.binding_ref as string;
    for (const token of [tokens.mallory, tokens.aliceOtherTenant]) {
      const seen = await call('GET', `${ROOMS}/${roomId}`, token);
      expect([seen.status, seen.body.code, seen.body.schema]).toEqual([404, 'not_found', ROOM_ERROR]);
      expect((await call('GET', ROOMS, token)).body.rooms).not.toContainEqual(
        expect.objectContaining({ room_id: roomId }),
      );
      const withdrawn = await call('DELETE', `${ROOMS}/run-bindings/${ref}`, token);
      expect([withdrawn.status, withdrawn.body.code]).toEqual([404, 'not_found']);
      const command = await call('POST', `${ROOMS}/${roomId}/commands`, token, { body: { command: 'x' } });
      expect(command.status).toBe(404);
    }
    const chat = await call('DELETE', `${ROOMS}/chat-bindings/rcb_${'0'.repeat(32)}`, tokens.mallory);
    expect([chat.status, chat.body.code]).toEqual([404, 'not_found']);
    // Mallory's own run in alice's room: not a member, not found.
    expect((await bind(tokens.mallory, roomId, await startRunAs(tokens.mallory))).status).toBe(404);
    expect((await h.testStore.store.read.rooms.getActiveRunBinding(runId))?.status).toBe('active');
  });

  it('SLR-05, SLR-06: caller-supplied owner, tenant, account or participant fields are unknown fields (400)', async () => {
    const roomId = await createRoomAs(tokens.alice);
    const runId = await startRunAs(tokens.alice);
    for (const field of ['owner', 'tenant_id', 'account_id', 'participant']) {
      const create = await call('POST', ROOMS, tokens.alice, {
        idempotencyKey: idemKey(),
        body: { title: 'x', [field]: ids.mallory },
      });
      expect([create.status, create.body.code], field).toEqual([400, 'invalid_request']);
      const bound = await call('POST', `${ROOMS}/run-bindings`, tokens.alice, {
        body: { room_id: roomId, run_id: runId, [field]: ids.mallory },
      });
      expect([bound.status, bound.body.code], field).toEqual([400, 'invalid_request']);
    }
    expect(await h.testStore.store.read.rooms.getActiveRunBinding(runId)).toBeUndefined();
  });

  it('SLR-03: the same Idempotency-Key with another body is idempotency_conflict; a missing or short key is refused', async () => {
    const key = idemKey('conflict');
    expect((await call('POST', ROOMS, tokens.alice, { idempotencyKey: key, body: { title: 'One' } })).status).toBe(201);
    const other = await call('POST', ROOMS, tokens.alice, { idempotencyKey: key, body: { title: 'Two' } });
    expect([other.status, other.body.code, other.body.schema]).toEqual([422, 'idempotency_conflict', ROOM_ERROR]);
    expect(other.headers.get('idempotency-replayed')).toBe('false');
    expect((await call('POST', ROOMS, tokens.alice, { body: { title: 'One' } })).status).toBe(400);
    expect((await call('POST', ROOMS, tokens.alice, { idempotencyKey: 'short', body: { title: 'One' } })).status).toBe(
      400,
    );
  });

  it('WD-09: 50 concurrent binds of one run to two rooms over HTTP: exactly one 201, the rest 200 or 409', async () => {
    const [roomA, roomB] = [await createRoomAs(tokens.alice), await createRoomAs(tokens.alice)];
    const runId = await startRunAs(tokens.alice);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => bind(tokens.alice, i % 2 === 0 ? roomA : roomB, runId)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(
      statuses.every((s) => s === 201 || s === 200 || s === 409),
      statuses.join(','),
    ).toBe(true);
    const winner = answers.find((a) => a.status === 201)?.body;
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toBe('room_binding_conflict');
    for (const a of answers.filter((x) => x.status === 200)) expect(a.body.binding_ref).toBe(winner.binding_ref);
  });

  it('SLR-08, SLR-09: credential-shaped titles and keys in nested objects are refused and never echoed', async () => {
    const title = await call('POST', ROOMS, tokens.alice, { idempotencyKey: idemKey(), body: { title: API_KEY } });
    expect([title.status, title.body.code]).toEqual([400, 'invalid_request']);
    expect(title.text).not.toContain(API_KEY);
    const roomId = await createRoomAs(tokens.alice);
    // A command string the schema admits, an object key at the top level and one nested deeper.
    for (const body of [
      { command: API_KEY },
      { command: 'x', [API_KEY]: 1 },
      { command: 'x', extra: { [API_KEY]: 'v' } },
    ]) {
      const refused = await call('POST', `${ROOMS}/${roomId}/commands`, tokens.alice, { body });
      expect([refused.status, refused.body.code]).toEqual([400, 'invalid_request']);
      expect(refused.body.issues).toEqual([{ path: '(request)', message: 'credential-shaped value refused' }]);
      expect(refused.text).not.toContain(API_KEY);
    }
    const claim = await call('POST', `${ROOMS}/chat-bindings/claim`, tokens.alice, {
      body: { claim_handle: `hlxclm_${'a'.repeat(43)}`, run_id: await startRunAs(tokens.alice), note: API_KEY },
    });
    expect([claim.status, claim.body.code]).toEqual([400, 'invalid_request']);
    expect(claim.text).not.toContain(API_KEY);
  });

  it('SLR-16, ENV-02: a body over HELIX_ROOM_AGENT_BODY_LIMIT is 413 in the room error schema', async () => {
    const res = await call('POST', ROOMS, tokens.alice, {
      idempotencyKey: idemKey(),
      body: { title: 'x', pad: 'y'.repeat(BODY_LIMIT) },
    });
    expect([res.status, res.body.code, res.body.schema]).toEqual([413, 'payload_too_large', ROOM_ERROR]);
    expect(res.headers.get('idempotency-replayed')).toBe('false');
  });

  it('WD-01: a withdrawal with a body or a query string is refused (400) and withdraws nothing', async () => {
    const roomId = await createRoomAs(tokens.alice);
    const runId = await startRunAs(tokens.alice);
    const ref = (await bind(tokens.alice, roomId, runId)).body.binding_ref as string;
    const withBody = await call('DELETE', `${ROOMS}/run-bindings/${ref}`, tokens.alice, { body: { run_id: runId } });
    expect([withBody.status, withBody.body.code]).toEqual([400, 'invalid_request']);
    const withEmptyObject = await call('DELETE', `${ROOMS}/run-bindings/${ref}`, tokens.alice, { body: {} });
    expect(withEmptyObject.status).toBe(400);
    const withQuery = await call('DELETE', `${ROOMS}/run-bindings/${ref}?room_id=${roomId}`, tokens.alice);
    expect([withQuery.status, withQuery.body.code]).toEqual([400, 'invalid_request']);
    const chatQuery = await call('DELETE', `${ROOMS}/chat-bindings/rcb_${'1'.repeat(32)}?x=1`, tokens.alice);
    expect(chatQuery.status).toBe(400);
    expect((await h.testStore.store.read.rooms.getActiveRunBinding(runId))?.bindingRef).toBe(ref);
  });

  it('SLR-11, WD-05: after the policy lock the room is blocked but the withdrawal still works', async () => {
    const roomId = await createRoomAs(tokens.mallory);
    const runId = await startRunAs(tokens.mallory);
    const ref = (await bind(tokens.mallory, roomId, runId)).body.binding_ref as string;
    await setFeature(ids.mallory, false);
    try {
      const read = await call('GET', `${ROOMS}/${roomId}`, tokens.mallory);
      expect([read.status, read.body.code, read.body.feature]).toEqual([
        403,
        'feature_not_enabled',
        'shared_live_room',
      ]);
      expect(read.headers.get('www-authenticate')).toBeNull();
      const withdrawn = await call('DELETE', `${ROOMS}/run-bindings/${ref}`, tokens.mallory);
      expect([withdrawn.status, withdrawn.body.revocation_status]).toEqual([200, 'revoked']);
    } finally {
      await setFeature(ids.mallory, true);
    }
  });

  it('SLR-02, SLR-13: no bearer is 401 with the challenge; a missing scope is 403 naming every missing scope', async () => {
    const anonymous = await api(h.url, 'GET', ROOMS);
    expect([anonymous.status, anonymous.body.schema]).toEqual([401, ROOM_ERROR]);
    expect(anonymous.headers.get('www-authenticate')).toContain(
      `resource_metadata="${h.url}/.well-known/oauth-protected-resource/api/v1/rooms"`,
    );
    const roomId = await createRoomAs(tokens.alice);
    const runId = await startRunAs(tokens.alice);
    const refused = await bind(tokens.aliceReadOnly, roomId, runId);
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_scope']);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('helix.rooms.manage helix.agent_runs.write');
    // The list needs only helix.rooms.read, which the read-only key has.
    expect((await call('GET', ROOMS, tokens.aliceReadOnly)).status).toBe(200);
  });

  it('RREST-12: the literal segments win over {room_id}; neither word is a room id', async () => {
    const asRoom = await call('GET', `${ROOMS}/run-bindings`, tokens.alice);
    expect([asRoom.status, asRoom.body.code]).toEqual([404, 'not_found']);
    const literal = await call('POST', `${ROOMS}/run-bindings`, tokens.alice, { body: {} });
    expect([literal.status, literal.body.code]).toEqual([400, 'invalid_request']);
    const claim = await call('POST', `${ROOMS}/chat-bindings/claim`, tokens.alice, {
      body: { claim_handle: `hlxclm_${'b'.repeat(43)}`, run_id: await startRunAs(tokens.alice) },
    });
    expect([claim.status, claim.body.code]).toEqual([404, 'chat_claim_not_found']);
    // A room id or ref longer than the router admits is a room that does not exist, not a bad run id.
    for (const path of [`${ROOMS}/${'r'.repeat(300)}`, `${ROOMS}/run-bindings/${'r'.repeat(300)}`]) {
      const long = await call(path.includes('run-bindings') ? 'DELETE' : 'GET', path, tokens.alice);
      expect([long.status, long.body.code, long.body.schema]).toEqual([404, 'not_found', ROOM_ERROR]);
    }
    const notAllowed = await call('DELETE', `${ROOMS}/room_${'0'.repeat(24)}`, tokens.alice);
    expect([notAllowed.status, notAllowed.headers.get('allow')]).toEqual([405, 'GET']);
  });

  it('SLR-14: the rooms metadata advertises every run, room, environment-action and admissible data scope for the canonical resource', async () => {
    const rooms = await api(h.url, 'GET', '/.well-known/oauth-protected-resource/api/v1/rooms');
    const root = await api(h.url, 'GET', '/.well-known/oauth-protected-resource');
    expect(rooms.status).toBe(200);
    expect(rooms.body.resource).toBe(root.body.resource);
    expect(rooms.body.bearer_methods_supported).toEqual(['header']);
    // Issue 27 item 17: only the data scopes of sources configured here (the library in this harness).
    const wanted = [
      ...OAUTH_SCOPES.filter((s) => /^helix\.(agent_runs|rooms|room_sources|environment_actions)\./.test(s)),
      'helix.data.research_library.read',
    ];
    expect(wanted.length).toBeGreaterThanOrEqual(8);
    expect(rooms.body.scopes_supported).toEqual(expect.arrayContaining(wanted));
  });
});
