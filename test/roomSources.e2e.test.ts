import { existsSync, readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceCreateReceiptSchema, SourceListReceiptSchema } from '../src/api/roomOutputSchemas.js';
import { featuresFrom } from '../src/domain/accountPolicy.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import type { AccountDeps } from '../src/service/accounts/deps.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { authenticateSourceBearer } from '../src/service/roomSources/authenticateSourceBearer.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { accountDeps } from './support/accounts.js';
import { serverRoomDeps } from './support/roomDeps.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp } from './support/mcpClient.js';
import { serverStoreFlavours } from './support/stores.js';

const ROOMS = '/api/v1/rooms';
const SCOPES = 'helix.rooms.read helix.rooms.manage helix.room_sources.manage';
const ENV = { HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0', HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0' };
const DEFAULTS = { features: featuresFrom([]), defaultCapability: 'admit' as const, capabilities: {} };
const BODY = {
  domain_adapter: 'game.minecraft.readonly.v1',
  world_id: 'minecraft:overworld',
  source_label: 'Survival',
  ttl_ms: 3_600_000,
};

type ToolResult = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };

// Issue 15 (RREST-08, RREST-09, MRT-08, MRT-09, SRC-01..03): the source routes and tools over real HTTP and MCP.
describe.each(serverStoreFlavours())('room sources over REST and MCP on $name', (flavour) => {
  let h: TestHelix;
  let accounts: AccountDeps;
  let rooms: RoomDeps;
  let alice = '';
  let token = '';
  let noSourceScope = '';
  let client: Client;

  const call = (method: string, path: string, options: Parameters<typeof api>[3] = {}) =>
    api(h.url, method, path, { token, ...options });
  const newRoom = async () =>
    (await call('POST', ROOMS, { idempotencyKey: idemKey('room'), body: { title: 'World' } })).body.room
      .room_id as string;
  const tool = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  beforeAll(async () => {
    h = await startTestHelix(flavour, { env: ENV });
    const store = h.testStore.store;
    accounts = await accountDeps(store);
    rooms = await serverRoomDeps(store, DEFAULTS);
    alice = (await createAccount(accounts, { displayName: 'alice' })).accountId;
    await changeAccountPolicy(accounts, DEFAULTS, alice, { features: { shared_live_room: true, developer: true } });
    token = await h.key(SCOPES, 'tenant-a', alice);
    noSourceScope = await h.key('helix.rooms.read helix.rooms.manage', 'tenant-a', alice);
    client = await connectMcp(h.url, token);
  });
  afterAll(async () => {
    await client?.close();
    await h.close();
  });

  it('POST creates (201, replay re-issues the handle), GET lists without credentials; the claimed bearer is nowhere', async () => {
    const roomId = await newRoom();
    const key = idemKey('source');
    const created = await call('POST', `${ROOMS}/${roomId}/sources`, { idempotencyKey: key, body: BODY });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('idempotency-replayed')).toBe('false');
    expect(created.headers.get('cache-control')).toBe('no-store');
    const receipt = SourceCreateReceiptSchema.parse(created.body);
    expect(receipt).toMatchObject({ bearer_included: false, plugin_config_included: false });
    const handle = receipt.credential_delivery?.claim_handle ?? '';
    expect(handle).toMatch(/^hlxdlv_/);

    const replay = await call('POST', `${ROOMS}/${roomId}/sources`, { idempotencyKey: key, body: BODY });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.source.source_id).toBe(receipt.source.source_id);
    const fresh = replay.body.credential_delivery.claim_handle as string;
    expect(fresh).not.toBe(handle);

    const claimed = await claimDelivery(rooms, alice, fresh);
    expect((await authenticateSourceBearer(rooms, receipt.source.source_id, claimed.token_value)).roomId).toBe(roomId);
    const listed = await call('GET', `${ROOMS}/${roomId}/sources`);
    expect(listed.status).toBe(200);
    const list = SourceListReceiptSchema.parse(listed.body);
    expect(list.sources.map((s) => [s.source_id, s.credential_status])).toEqual([[receipt.source.source_id, 'issued']]);
    expect(listed.text).not.toContain(claimed.token_value);
    const afterClaim = await call('POST', `${ROOMS}/${roomId}/sources`, { idempotencyKey: key, body: BODY });
    expect(afterClaim.body.credential_delivery).toBeNull();
    expect(afterClaim.text).not.toContain(claimed.token_value);
    // SRC-03, SRC-05: neither the bearer nor a handle is in the database file.
    const location = h.testStore.location;
    if (location !== undefined && existsSync(location)) {
      for (const file of [location, `${location}-wal`].filter(existsSync)) {
        const bytes = readFileSync(file).toString('latin1');
        expect(bytes).not.toContain(claimed.token_value);
        expect(bytes).not.toContain(fresh);
      }
    }
  });

  it('refuses a missing scope (403 naming it), a bad body, a missing key and an unknown adapter, as room errors', async () => {
    const roomId = await newRoom();
    const path = `${ROOMS}/${roomId}/sources`;
    const scope = await api(h.url, 'GET', path, { token: noSourceScope });
    expect(scope.status).toBe(403);
    expect(scope.body).toMatchObject({ schema: 'helix.shared_live_room.error.v1', code: 'insufficient_scope' });
    expect(scope.headers.get('www-authenticate')).toContain('helix.room_sources.manage');
    const extra = await call('POST', path, { idempotencyKey: idemKey('s'), body: { ...BODY, owner: 'x' } });
    expect(extra.body.code).toBe('invalid_request');
    expect((await call('POST', path, { body: BODY })).body.code).toBe('idempotency_key_required');
    const unknown = await call('POST', path, { idempotencyKey: idemKey('s'), body: { ...BODY, domain_adapter: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('environment_adapter_unknown');
    const fixture = { ...BODY, domain_adapter: 'synthetic_game.fixture.v1', world_id: 'synthetic-game:a' };
    expect((await call('POST', path, { idempotencyKey: idemKey('s'), body: fixture })).body.code).toBe(
      'environment_adapter_disabled',
    );
    const other = `room_${'0'.repeat(24)}`;
    expect((await call('GET', `${ROOMS}/${other}/sources`)).status).toBe(404);
  });

  it('MRT-08, MRT-09: the two tools create and list through the same use cases', async () => {
    const roomId = await newRoom();
    const created = await tool('helix_room_source_create', {
      room_id: roomId,
      idempotency_key: idemKey('tool'),
      request: BODY,
    });
    expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy();
    expect(SourceCreateReceiptSchema.parse(created.structuredContent).credential_delivery?.claim_url).toMatch(
      /^\/account\/room-sources\/claim#hlxdlv_/,
    );
    const listed = await tool('helix_room_source_list', { room_id: roomId });
    expect(SourceListReceiptSchema.parse(listed.structuredContent).sources).toHaveLength(1);
    const bad = await tool('helix_room_source_create', {
      room_id: roomId,
      idempotency_key: idemKey('tool'),
      request: { ...BODY, world_id: 'synthetic-game:a' },
    });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent.code).toBe('environment_adapter_identity_mismatch');
  });
});
