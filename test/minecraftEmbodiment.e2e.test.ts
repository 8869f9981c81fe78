// Issue 16 "done when": the embodiment flow end to end against a real flying-squid server, the real
// reference connector (with its action credential) and a real `helix serve`, driven over MCP with
// the official SDK client: select the subject, navigate, mine and place (each world-mutating action
// with a runtime approval receipt signed by the reference approval host), read the workflow status,
// and Emergency Stop a long navigation. The world is checked on the server side (MC-01..MC-15,
// M-02, M-03, D-10, D-11, APR-02..APR-09).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { accountDeps } from './support/accounts.js';
import { signDirectApproval, testApprovalHost } from './support/approvalKeys.js';
import { ADMIT_ALL } from './support/boundRoom.js';
import { api, idemKey } from './support/harness.js';
import { connectMcp } from './support/mcpClient.js';
import {
  announceMinecraftSkip,
  type ChildHandle,
  type FlatWorldServer,
  startConnector,
  startFlatWorldServer,
} from './support/minecraft.js';
import { startCliServer, type ServerProcess } from './support/processes.js';
import { serverRoomDeps } from './support/roomDeps.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const SCOPES = [
  'helix.rooms.read',
  'helix.rooms.manage',
  'helix.room_sources.manage',
  'helix.environment_actions.read',
  'helix.environment_actions.write',
];
const WORLD = 'minecraft:helix-embodiment';
const PLAYER = 'helix_embodied';
const ISSUER = 'https://approvals.e2e.test';
const KEY_ID = 'e2e-key';
const APPROVALS = testApprovalHost(ISSUER, KEY_ID);
const REGISTRY = APPROVALS.registryJson;

type ToolResult = { isError?: boolean; structuredContent?: any };
type Point = { x: number; y: number; z: number };
const flatDistance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.z - b.z);

const skip = announceMinecraftSkip();

describe.skipIf(skip)('Minecraft embodiment end to end over MCP (flying-squid, the connector, helix serve)', () => {
  let t: TestStore;
  let helix: ServerProcess;
  let game: FlatWorldServer;
  let connector: ChildHandle | undefined;
  let client: Client;
  let roomId = '';
  let sourceId = '';
  let subjectRef = '';
  let spawn: Point;
  let n = 0;

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const ok = (result: ToolResult) => {
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    return result.structuredContent;
  };
  const receipt = (action: object) => signDirectApproval(APPROVALS, { action, roomId, subjectRef }, Date.now());
  /** One typed action, or an array of them as one multi-step workflow; the receipt binds exactly that. */
  const act = async (plan: object, approved = false) =>
    call('helix_minecraft_player_action', {
      room_id: roomId,
      idempotency_key: `e2e-action-${++n}-${Date.now()}`,
      ...(Array.isArray(plan) ? { actions: plan } : { action: plan }),
      ...(approved ? { approval_receipt: await receipt(plan) } : {}),
    });
  const status = async (workflowRef: string) =>
    ok(await call('helix_minecraft_workflow_status', { room_id: roomId, workflow_ref: workflowRef }));
  /** Starts an action and waits until its workflow leaves `running`. */
  const settle = async (action: object, approved = false) => {
    const ref = ok(await act(action, approved)).workflow_ref as string;
    await expect.poll(async () => (await status(ref)).status, { timeout: 20_000, interval: 200 }).not.toBe('running');
    return status(ref);
  };

  beforeAll(async () => {
    t = await storeFlavours()[0]!.create();
    const accounts = await accountDeps(t.store);
    const accountId = (await createAccount(accounts, { displayName: 'embodiment e2e' })).accountId;
    await changeAccountPolicy(accounts, ADMIT_ALL, accountId, {
      features: { shared_live_room: true, developer: true },
    });
    const token = (await createApiKey(t.store, { tenantId: 'e2e', accountId, scopes: SCOPES }, Date.now())).key;
    [helix, game] = await Promise.all([
      startCliServer(t.location ?? '', {
        HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON: REGISTRY,
        HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
        HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
        HELIX_MCP_IP_RATE_LIMIT: '0',
        HELIX_MCP_PRINCIPAL_RATE_LIMIT: '0',
      }),
      startFlatWorldServer({ give: 'dirt 4,diamond_pickaxe 1' }),
    ]);
    const rest = (method: string, path: string, body: unknown) =>
      api(helix.url, method, path, { token, idempotencyKey: idemKey('e2e'), body });
    roomId = (await rest('POST', '/api/v1/rooms', { title: 'Embodied world' })).body.room.room_id;
    const created = await rest('POST', `/api/v1/rooms/${roomId}/sources`, {
      domain_adapter: 'game.minecraft.readonly.v1',
      world_id: WORLD,
      source_label: 'Flat world',
      ttl_ms: 3_600_000,
    });
    sourceId = created.body.source.source_id;
    const claimed = await claimDelivery(
      await serverRoomDeps(t.store, ADMIT_ALL),
      accountId,
      created.body.credential_delivery.claim_handle,
    );
    expect(claimed.action_token_value).toMatch(/^hlxact_/);
    connector = startConnector({
      baseUrl: helix.url,
      bindingId: sourceId,
      worldId: WORLD,
      bearer: claimed.token_value,
      actionBearer: claimed.action_token_value ?? '',
      minecraftPort: game.port,
      username: PLAYER,
      env: {
        HELIX_CONNECTOR_SNAPSHOT_INTERVAL_MS: '500',
        HELIX_CONNECTOR_HEARTBEAT_INTERVAL_MS: '500',
        HELIX_CONNECTOR_ACTION_POLL_INTERVAL_MS: '250',
      },
    });
    client = await connectMcp(helix.url, token);
    // Ready once the Device Check says the connector is admitted, connected and observing.
    for (let waited = 0; ; waited += 250) {
      if ((await call('helix_environment_device_check', { room_id: roomId })).structuredContent?.ready === true) break;
      if (waited > 30_000) throw new Error(`the connector never became ready: ${connector.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    spawn = (await game.positionOf(PLAYER))!;
  }, 90_000);
  afterAll(async () => {
    await client?.close();
    await connector?.stop('SIGKILL');
    await game?.stop('SIGKILL');
    await helix?.kill('SIGTERM');
    await t?.dispose();
  });

  it('MC-01, MC-02, MC-09: the member lists the opaque subject and selects it', async () => {
    const listed = ok(await call('helix_environment_subject_list', { room_id: roomId }));
    expect(JSON.stringify(listed)).not.toContain(PLAYER);
    subjectRef = listed.subjects[0].subject_ref;
    ok(
      await call('helix_environment_subject_select', {
        room_id: roomId,
        environment_binding_id: sourceId,
        subject_ref: subjectRef,
      }),
    );
  }, 30_000);

  it('MC-03, MC-12: navigate_to completes with a verified postcondition, and the server has the player there', async () => {
    const target = { x: spawn.x + 5, y: spawn.y, z: spawn.z };
    const done = await settle({ kind: 'navigate_to', target, range: 1 });
    expect(done).toMatchObject({ status: 'completed', answer_authority: false, terminal_eligible: false });
    expect(flatDistance((await game.positionOf(PLAYER))!, target)).toBeLessThan(2);
  }, 30_000);

  it('D-11, APR-08, MC-12: mine and a look-then-place workflow need a receipt; with one signed by the approval host they change the server world', async () => {
    const here = (await game.positionOf(PLAYER))!;
    const target = { x: Math.floor(here.x) + 1, y: Math.floor(here.y) - 1, z: Math.floor(here.z) };
    const mine = { kind: 'mine', target };
    const refused = await act(mine);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.code).toBe('runtime_approval_receipt_invalid');
    expect(await game.blockAt(target.x, target.y, target.z)).not.toBe('air');

    expect(await settle(mine, true)).toMatchObject({ status: 'completed' });
    expect(await game.blockAt(target.x, target.y, target.z)).toBe('air');
    // A two-step workflow: look at the hole, then place dirt in it; one receipt for the exact plan.
    const placed = await settle(
      [
        { kind: 'look_at', target },
        { kind: 'place', target, item: 'dirt' },
      ],
      true,
    );
    expect(placed).toMatchObject({
      status: 'completed',
      actions: [
        { step: 0, kind: 'look_at', status: 'completed', verified: true },
        { step: 1, kind: 'place', status: 'completed', verified: true },
      ],
    });
    expect(await game.blockAt(target.x, target.y, target.z)).toBe('dirt');
  }, 60_000);

  it('M-03: Emergency Stop during a long navigation is reported stopped only once the player is stationary', async () => {
    const far = { x: spawn.x + 40, y: spawn.y, z: spawn.z };
    const ref = ok(await act({ kind: 'navigate_to', target: far, range: 1 })).workflow_ref as string;
    const start = (await game.positionOf(PLAYER))!;
    await expect
      .poll(async () => flatDistance((await game.positionOf(PLAYER))!, start), { timeout: 10_000, interval: 100 })
      .toBeGreaterThan(1);
    ok(
      await call('helix_minecraft_workflow_control', {
        room_id: roomId,
        workflow_ref: ref,
        control: 'emergency_stop',
        reason: 'e2e stop',
      }),
    );
    await expect.poll(async () => (await status(ref)).status, { timeout: 10_000, interval: 100 }).toBe('stopped');
    const stoppedAt = (await game.positionOf(PLAYER))!;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(flatDistance((await game.positionOf(PLAYER))!, stoppedAt)).toBeLessThan(0.05);
    expect(flatDistance(stoppedAt, far)).toBeGreaterThan(5);
  }, 40_000);
});
