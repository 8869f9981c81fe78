// A Minecraft room with a SCRIPTED connector on the action lane and MCP clients for its members:
// the embodiment tests' world (docs/embodiment.md). "Not live-verified": no game runs.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { changeAccountPolicy } from '../../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../../src/service/accounts/createAccount.js';
import { acceptConsent } from '../../src/service/rooms/acceptConsent.js';
import { acceptInvite } from '../../src/service/rooms/acceptInvite.js';
import { createInvite } from '../../src/service/rooms/createInvite.js';
import { accountDeps } from './accounts.js';
import { fakeConnector } from './fakeConnector.js';
import type { TestHelix } from './harness.js';
import { sourceOwner } from './ingressSources.js';
import { connectMcp } from './mcpClient.js';

const ACT = 'helix.rooms.read helix.environment_actions.read helix.environment_actions.write';

export type ToolResult = { isError?: boolean; structuredContent?: any };
export const codeOf = (r: ToolResult) => r.structuredContent?.code ?? r.structuredContent?.error?.code;

/** One server, a developer owner with a Minecraft room, its scripted connector and an MCP client. */
export const embodimentWorld = async (h: TestHelix, now: () => number, clients: Client[]) => {
  const owner = await sourceOwner(h, now);
  const source = await owner.newSource();
  const connector = await fakeConnector(h, source, now);
  const mcpAs = async (accountId: string) => {
    const client = await connectMcp(h.url, await h.key(ACT, 'tenant-a', accountId));
    clients.push(client);
    return async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;
  };
  const call = await mcpAs(owner.accountId);
  /** Another account of the room, as a consenting member. */
  const member = async (name: string) => {
    const accounts = await accountDeps(h.testStore.store);
    const id = (await createAccount(accounts, { displayName: name })).accountId;
    await changeAccountPolicy(accounts, ADMIT, id, { features: { shared_live_room: true } });
    const { token } = await createInvite(owner.rooms, owner.accountId, source.roomId, { role: 'member' });
    const joined = await acceptInvite(owner.rooms, id, token);
    await acceptConsent(owner.rooms, id, source.roomId, joined.consent.version);
    return { id, call: await mcpAs(id) };
  };
  const subjectRef = async (as = call) => {
    const listed = await as('helix_environment_subject_list', { room_id: source.roomId });
    expect(listed.isError, JSON.stringify(listed.structuredContent)).toBeFalsy();
    return listed.structuredContent.subjects[0].subject_ref as string;
  };
  const select = async (as = call) =>
    as('helix_environment_subject_select', {
      room_id: source.roomId,
      environment_binding_id: source.id,
      subject_ref: await subjectRef(as),
    });
  let n = 0;
  const act = (action: object, extra: Record<string, unknown> = {}, as = call) =>
    as('helix_minecraft_player_action', {
      room_id: source.roomId,
      idempotency_key: `act-key-${++n}`,
      action,
      ...extra,
    });
  const status = (workflowRef: string, as = call) =>
    as('helix_minecraft_workflow_status', { room_id: source.roomId, workflow_ref: workflowRef });
  return { owner, source, connector, call, member, subjectRef, select, act, status };
};
const ADMIT: any = { features: { shared_live_room: false }, defaultCapability: 'admit' as const, capabilities: {} };

/** A world whose member bob walks the room's player, the walk already handed to the connector. */
export const walkingMember = async (h: TestHelix, now: () => number, clients: Client[]) => {
  const w = await embodimentWorld(h, now, clients);
  const bob = await w.member('bob');
  expect((await w.select(bob.call)).isError).toBeFalsy();
  const started = await w.act({ kind: 'walk', direction: 'forward', ticks: 100 }, {}, bob.call);
  const ref = started.structuredContent.workflow_ref as string;
  expect((await w.connector.poll()).actions).toHaveLength(1);
  return { w, bob, ref };
};
