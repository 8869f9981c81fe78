import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceCheckReceiptSchema } from '../src/api/deviceCheckViews.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import type { AccountDeps } from '../src/service/accounts/deps.js';
import { acceptConsent } from '../src/service/rooms/acceptConsent.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { accountDeps } from './support/accounts.js';
import { ADMIT_ALL, insertObservation, observationOf, roomWithAdmittedSource } from './support/boundRoom.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp, rawMcp } from './support/mcpClient.js';
import { serverRoomDeps } from './support/roomDeps.js';
import { serverStoreFlavours } from './support/stores.js';

const ROOMS = '/api/v1/rooms';
const DEVICE_CHECK = '/mcp/device-check';
const ENV = { HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0', HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0' };
const MANAGE = 'helix.rooms.read helix.rooms.manage helix.room_sources.manage';

type ToolResult = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };

// Issue 15 item 6: Device Check (DC-01..DC-04, D-03) over real HTTP with the official MCP SDK client.
describe.each(serverStoreFlavours())('Device Check on $name', (flavour) => {
  let h: TestHelix;
  let accounts: AccountDeps;
  let rooms: RoomDeps;
  let alice = '';
  let bob = '';
  let manageToken = '';
  let readOnly = '';
  let bobReadOnly = '';
  const clients: Client[] = [];

  const connect = async (token: string, path = DEVICE_CHECK) => {
    const client = await connectMcp(h.url, token, path);
    clients.push(client);
    return client;
  };
  const check = async (client: Client, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name: 'helix_environment_device_check', arguments: args })) as ToolResult;
  const newRoom = async () =>
    (await api(h.url, 'POST', ROOMS, { token: manageToken, idempotencyKey: idemKey('room'), body: { title: 'World' } }))
      .body.room.room_id as string;
  /** A Minecraft source of the room, its delivery claimed by the owner: credentialed, not yet admitted. */
  const claimedSource = async (roomId: string) => {
    const created = await api(h.url, 'POST', `${ROOMS}/${roomId}/sources`, {
      token: manageToken,
      idempotencyKey: idemKey('source'),
      body: {
        domain_adapter: 'game.minecraft.readonly.v1',
        world_id: 'minecraft:overworld',
        source_label: 'Survival',
        ttl_ms: 3_600_000,
      },
    });
    const claimed = await claimDelivery(rooms, alice, created.body.credential_delivery.claim_handle);
    return { sourceId: created.body.source.source_id as string, bearer: claimed.token_value };
  };
  /** What the ingress lane records for a connected producer: an admission, a heartbeat, a snapshot. */
  const connectProducer = async (heartbeatAt: number, observedAt: number) => {
    const room = await roomWithAdmittedSource(h.url, manageToken, rooms, alice, heartbeatAt);
    await h.testStore.store.read.roomIngress.upsertStatus({
      sourceId: room.source.sourceId,
      ownerHash: room.source.ownerHash,
      producerEpochHash: room.admission.producerEpochHash,
      lastHeartbeatAt: heartbeatAt,
      gameConnected: true,
      lastObservedAt: observedAt,
    });
    const payload = { player: { username: 'secret_player_name' } };
    await insertObservation(h.testStore.store, observationOf(room, payload, observedAt));
    return room;
  };

  beforeAll(async () => {
    h = await startTestHelix(flavour, { env: ENV });
    const store = h.testStore.store;
    accounts = await accountDeps(store);
    rooms = await serverRoomDeps(store, ADMIT_ALL);
    alice = (await createAccount(accounts, { displayName: 'alice' })).accountId;
    bob = (await createAccount(accounts, { displayName: 'bob' })).accountId;
    for (const id of [alice, bob])
      await changeAccountPolicy(accounts, ADMIT_ALL, id, { features: { shared_live_room: true, developer: true } });
    manageToken = await h.key(MANAGE, 'tenant-a', alice);
    readOnly = await h.key('helix.rooms.read', 'tenant-a', alice);
    bobReadOnly = await h.key('helix.rooms.read', 'tenant-a', bob);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await h.close();
  });

  it('DC-02, DC-03, D-03: /mcp/device-check publishes exactly helix_environment_device_check, scope helix.rooms.read, and no run or room tool', async () => {
    const client = await connect(readOnly);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['helix_environment_device_check']);
    const raw = await rawMcp(
      h.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${readOnly}` },
      DEVICE_CHECK,
    );
    expect(raw.body.result.tools).toHaveLength(1);
    expect(raw.body.result.tools[0].securitySchemes).toEqual([{ type: 'oauth2', scopes: ['helix.rooms.read'] }]);
    expect(tools[0]?.annotations?.readOnlyHint).toBe(true);
    expect(client.getInstructions()).not.toMatch(/helix_run_|helix_room_/);
    const other = (await client.callTool({ name: 'helix_run_start', arguments: {} })) as ToolResult;
    expect(other.isError).toBe(true);
    expect(other.structuredContent.code).toBe('tool_not_found');
  });

  it('DC-04, D-03: /mcp publishes it in the full catalog', async () => {
    const { tools } = await (await connect(manageToken, '/mcp')).listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('helix_environment_device_check');
    expect(names).toContain('helix_run_start');
  });

  it('DC-01: without a bearer, /mcp/device-check challenges with its own read-only metadata document', async () => {
    const res = await rawMcp(h.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, DEVICE_CHECK);
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(`resource_metadata="${h.url}/.well-known/oauth-protected-resource/mcp/device-check"`);
    const metadata = (await (
      await fetch(`${h.url}/.well-known/oauth-protected-resource/mcp/device-check`)
    ).json()) as any;
    expect(metadata.scopes_supported).toEqual(['helix.rooms.read']);
  });

  it('DC-02: check by check, a source goes from pending claim to ready, and back to not ready when its evidence goes stale', async () => {
    const roomId = await newRoom();
    const client = await connect(readOnly);
    const empty = DeviceCheckReceiptSchema.parse((await check(client, { room_id: roomId })).structuredContent);
    expect(empty).toMatchObject({ ready: false, rooms: [{ room_id: roomId, sources: [], ready: false }] });

    const { sourceId, bearer } = await claimedSource(roomId);
    const claimed = (await check(client, { room_id: roomId })).structuredContent;
    expect(claimed.rooms[0].sources[0]).toMatchObject({
      source_id: sourceId,
      status: 'active',
      checks: {
        credentialed: true,
        admitted: false,
        heartbeat_fresh: false,
        game_connected: false,
        observation_fresh: false,
      },
      ready: false,
    });

    // An admitted, connected producer with a fresh snapshot: every check passes.
    const now = Date.now();
    const connected = await connectProducer(now, now - 1_000);
    const result = await check(client, { room_id: connected.roomId });
    const ready = DeviceCheckReceiptSchema.parse(result.structuredContent);
    expect(ready.rooms[0]?.sources[0]?.checks).toEqual({
      credentialed: true,
      admitted: true,
      heartbeat_fresh: true,
      game_connected: true,
      observation_fresh: true,
    });
    expect(ready).toMatchObject({ ready: true, answer_authority: false, execution_enabled: false });
    // DC-03: connection state only: no bearer, epoch, manifest or observation content.
    const text = result.content[0]?.text ?? '';
    const { producerEpochHash, manifestId, manifestHash } = connected.admission;
    for (const secret of [bearer, producerEpochHash, manifestId, manifestHash, 'secret_player_name'])
      expect(text).not.toContain(secret);

    // A producer whose heartbeat and snapshot are older than the profile's ceilings is not ready.
    const staleRoom = await connectProducer(now - 120_000, now - 120_000);
    const stale = (await check(client, { room_id: staleRoom.roomId })).structuredContent;
    expect(stale.rooms[0].sources[0].checks).toMatchObject({ heartbeat_fresh: false, observation_fresh: false });
    expect(stale.ready).toBe(false);
  });

  it('RREST-03: another account sees only its own rooms; naming a room it is not a member of is not found', async () => {
    const roomId = await newRoom();
    const bobClient = await connect(bobReadOnly);
    expect((await check(bobClient)).structuredContent.rooms.map((r: any) => r.room_id)).not.toContain(roomId);
    const refused = await check(bobClient, { room_id: roomId });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.code).toBe('not_found');

    // Once Bob joins and consents, the member's check shows the room's sources.
    const { token } = await createInvite(rooms, alice, roomId, { role: 'member' });
    const joined = await acceptInvite(rooms, bob, token);
    await acceptConsent(rooms, bob, roomId, joined.consent.version);
    expect((await check(bobClient, { room_id: roomId })).structuredContent.rooms[0].room_id).toBe(roomId);
  });

  it('DC-02 over REST: GET /api/v1/rooms/device-check and /api/v1/rooms/{room_id}/device-check answer the same receipt', async () => {
    const roomId = await newRoom();
    const all = await api(h.url, 'GET', `${ROOMS}/device-check`, { token: readOnly });
    expect(all.status, all.text).toBe(200);
    expect(DeviceCheckReceiptSchema.parse(all.body).rooms.map((r) => r.room_id)).toContain(roomId);
    const one = await api(h.url, 'GET', `${ROOMS}/${roomId}/device-check`, { token: readOnly });
    expect(one.status).toBe(200);
    expect(one.body.rooms.map((r: any) => r.room_id)).toEqual([roomId]);
    const foreign = await api(h.url, 'GET', `${ROOMS}/${roomId}/device-check`, { token: bobReadOnly });
    expect(foreign.status).toBe(404);
    expect(foreign.body.schema).toBe('helix.shared_live_room.error.v1');
  });

  it('refuses bad input and a token without helix.rooms.read', async () => {
    const client = await connect(readOnly);
    const bad = await check(client, { room_id: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent.code).toBe('invalid_request');
    const unknownArg = await check(client, { room: 'x' });
    expect(unknownArg.structuredContent.code).toBe('invalid_request');
    const runsOnly = await connect(await h.key('helix.agent_runs.read', 'tenant-a', alice));
    const refused = await check(runsOnly);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.code).toBe('insufficient_scope');
  });
});
