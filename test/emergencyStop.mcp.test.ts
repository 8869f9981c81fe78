// Issue 27 item 3: an Emergency Stop over MCP is a safety control, as the console's is (MC-05,
// MC-12 "manual override, Emergency Stop", M-03). It is never refused for consent
// (room_consent_required) or the Shared Live Room policy lock (feature_not_enabled); it still
// needs its OAuth scopes, a linked account and current membership, and it reaches exactly the
// workflows the console's stop reaches: a room owner any workflow, another member their own.
// Over real HTTP with the official MCP client and the scripted connector (test/support/embodimentWorld.ts).
import { describe, expect, it } from 'vitest';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { publishConsentVersion } from '../src/service/rooms/publishConsentVersion.js';
import { removeMember } from '../src/service/rooms/removeMember.js';
import { accountDeps } from './support/accounts.js';
import { codeOf, embodimentWorld, walkingMember } from './support/embodimentWorld.js';
import { ROOM_FEATURE_LOCKED, useEmbodimentServer } from './support/embodimentServer.js';
import { connectMcp } from './support/mcpClient.js';
import { serverStoreFlavours } from './support/stores.js';

describe.each(serverStoreFlavours())('Emergency Stop over MCP on $name (MC-05, MC-12, M-03)', (flavour) => {
  const server = useEmbodimentServer(flavour);
  const { clock, clients } = server;

  /** A room whose member bob is walking a player, the walk already handed to the connector. */
  const walking = () => walkingMember(server.h, clock.now, clients);
  const control = (w: Awaited<ReturnType<typeof walking>>['w'], ref: string, which: string) => ({
    room_id: w.source.roomId,
    workflow_ref: ref,
    control: which,
  });
  /** The controls the connector is handed next, for this workflow. */
  const controlsFor = async (w: Awaited<ReturnType<typeof walking>>['w'], ref: string) =>
    (await w.connector.poll()).controls.filter((c) => c.workflow_ref === ref).map((c) => c.control);

  it('M-03, MC-12: after a consent bump the member still stops their workflow (emergency_stop and cancel); resume is still refused', async () => {
    const { w, bob, ref } = await walking();
    await publishConsentVersion(w.owner.rooms, w.owner.accountId, w.source.roomId, 'New rules: no digging.');
    // The bump is real: bob may no longer act in the room.
    expect(codeOf(await w.act({ kind: 'jump' }, {}, bob.call))).toBe('room_consent_required');
    const stop = await bob.call('helix_minecraft_workflow_control', control(w, ref, 'emergency_stop'));
    expect(stop.isError, JSON.stringify(stop.structuredContent)).toBeFalsy();
    expect(stop.structuredContent).toMatchObject({
      operation: 'minecraft.player.workflow.control',
      workflow_ref: ref,
      control: 'emergency_stop',
      status: 'stopping',
      answer_authority: false,
    });
    expect(await controlsFor(w, ref)).toEqual(['emergency_stop']);
    const cancel = await bob.call('helix_minecraft_workflow_control', control(w, ref, 'cancel'));
    expect(cancel.structuredContent).toMatchObject({ control: 'cancel', status: 'stopping' });
    // Resume drives the player again, so it keeps every gate of acting.
    expect(codeOf(await bob.call('helix_minecraft_workflow_control', control(w, ref, 'resume')))).toBe(
      'room_consent_required',
    );
  });

  it('M-03, SLR-11: under the Shared Live Room policy lock the member still stops their workflow', async () => {
    const { w, bob, ref } = await walking();
    await changeAccountPolicy(await accountDeps(server.h.testStore.store), ROOM_FEATURE_LOCKED, bob.id, {
      features: { shared_live_room: false },
    });
    expect(codeOf(await w.status(ref, bob.call))).toBe('feature_not_enabled');
    const stop = await bob.call('helix_minecraft_workflow_control', control(w, ref, 'emergency_stop'));
    expect(stop.isError, JSON.stringify(stop.structuredContent)).toBeFalsy();
    expect(stop.structuredContent).toMatchObject({ status: 'stopping', control: 'emergency_stop' });
    expect(await controlsFor(w, ref)).toEqual(['emergency_stop']);
    expect(codeOf(await bob.call('helix_minecraft_workflow_control', control(w, ref, 'resume')))).toBe(
      'feature_not_enabled',
    );
  });

  it('MC-12: the room owner stops a member’s workflow over MCP, as on the console, even with the owner’s own policy locked', async () => {
    const { w, ref } = await walking();
    await changeAccountPolicy(await accountDeps(server.h.testStore.store), ROOM_FEATURE_LOCKED, w.owner.accountId, {
      features: { shared_live_room: false },
    });
    const stop = await w.call('helix_minecraft_workflow_control', control(w, ref, 'emergency_stop'));
    expect(stop.isError, JSON.stringify(stop.structuredContent)).toBeFalsy();
    expect(stop.structuredContent).toMatchObject({ status: 'stopping' });
    expect(await controlsFor(w, ref)).toEqual(['emergency_stop']);
  });

  it('RREST-03, SLR-13: another member, a stranger, an unknown ref and a token without the write scope stop nothing', async () => {
    const { w, bob, ref } = await walking();
    const carol = await w.member('carol');
    expect(codeOf(await carol.call('helix_minecraft_workflow_control', control(w, ref, 'emergency_stop')))).toBe(
      'not_found',
    );
    const stranger = await embodimentWorld(server.h, clock.now, clients);
    expect(codeOf(await stranger.call('helix_minecraft_workflow_control', control(w, ref, 'emergency_stop')))).toBe(
      'not_found',
    );
    expect(codeOf(await w.call('helix_minecraft_workflow_control', control(w, 'wfr_unknown', 'emergency_stop')))).toBe(
      'not_found',
    );
    // A ref outside 1-320 names no workflow; one that is not a string is a bad request.
    for (const bad of ['', 'x'.repeat(321)])
      expect(codeOf(await bob.call('helix_minecraft_workflow_control', control(w, bad, 'emergency_stop')))).toBe(
        'not_found',
      );
    expect(
      codeOf(
        await bob.call('helix_minecraft_workflow_control', { ...control(w, ref, 'emergency_stop'), workflow_ref: 7 }),
      ),
    ).toBe('invalid_request');
    const readOnly = await connectMcp(server.h.url, await server.h.key('helix.rooms.read', 'tenant-a', bob.id));
    clients.push(readOnly);
    const refused = (await readOnly.callTool({
      name: 'helix_minecraft_workflow_control',
      arguments: control(w, ref, 'emergency_stop'),
    })) as { structuredContent?: any };
    expect(codeOf(refused)).toBe('insufficient_scope');
    expect((await w.status(ref, bob.call)).structuredContent.status).toBe('running');
    expect(await controlsFor(w, ref)).toEqual([]);
  });

  it('MC-12: a removed member stops nothing any more: the removal itself stopped their workflow', async () => {
    const { w, bob, ref } = await walking();
    await removeMember(w.owner.rooms, w.owner.accountId, w.source.roomId, bob.id);
    expect(await controlsFor(w, ref)).toEqual(['emergency_stop']);
    expect(codeOf(await bob.call('helix_minecraft_workflow_control', control(w, ref, 'emergency_stop')))).toBe(
      'not_found',
    );
  });
});
