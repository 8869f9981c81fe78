// Issue 16 item 3, MC-12 and M-03: the console's manual override. A signed-in human stops a player
// workflow in their room from the room page: an owner any workflow, a member their own; the stop is
// the same verified Emergency Stop as the MCP control. Over real HTTP with session cookies, on
// SQLite and PostgreSQL, with the scripted connector (test/support/embodimentWorld.ts). The
// Chromium walk through the same page is test/roomWorkflowConsole.browser.test.ts.
import { describe, expect, it } from 'vitest';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { accountDeps } from './support/accounts.js';
import { signInCookie } from './support/consoleSession.js';
import { embodimentWorld, walkingMember } from './support/embodimentWorld.js';
import { ROOM_FEATURE_LOCKED, useEmbodimentServer } from './support/embodimentServer.js';
import { serverStoreFlavours } from './support/stores.js';

describe.each(serverStoreFlavours())('the console manual override on $name (MC-12, M-03)', (flavour) => {
  const server = useEmbodimentServer(flavour);
  const { clock, clients } = server;

  const cookieOf = async (accountId: string): Promise<string> => {
    return signInCookie(server.h.url, await accountDeps(server.h.testStore.store), accountId);
  };
  const page = async (cookie: string, roomId: string) => {
    const res = await fetch(`${server.h.url}/account/rooms/${roomId}`, { headers: { cookie } });
    return { status: res.status, text: await res.text() };
  };
  const stop = (cookie: string, roomId: string, ref: string, origin = new URL(server.h.url).origin) =>
    fetch(`${server.h.url}/account/rooms/${roomId}/workflows/${ref}/emergency-stop`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });

  /** A room whose member bob is walking a player; the owner and bob signed in. */
  const walking = async () => {
    const { w, bob, ref } = await walkingMember(server.h, clock.now, clients);
    return { w, bob, ref, owner: await cookieOf(w.owner.accountId), bobCookie: await cookieOf(bob.id) };
  };

  it('the room page lists the open workflow; the owner stops it and it reads stopped only after a stationary report', async () => {
    const { w, bob, ref, owner } = await walking();
    const before = await page(owner, w.source.roomId);
    expect(before.status).toBe(200);
    expect(before.text).toContain(`data-workflow="${ref}"`);
    expect(before.text).toContain('Emergency stop');

    const res = await stop(owner, w.source.roomId, ref);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/account/rooms/${w.source.roomId}`);
    expect((await w.status(ref, bob.call)).structuredContent.status).toBe('stopping');
    const [control] = (await w.connector.poll()).controls;
    expect(control).toMatchObject({ workflow_ref: ref, control: 'emergency_stop' });
    expect((await page(owner, w.source.roomId)).text).toContain('stop sent, waiting for the player to stand still');

    // A drifting stop does not count (M-03); a stationary one does.
    expect((await w.connector.controlResult(control, 'stopped', 3.48)).status).toBe(200);
    expect((await w.status(ref, bob.call)).structuredContent.status).toBe('stopping');
    expect((await stop(owner, w.source.roomId, ref)).status).toBe(303);
    const [second] = (await w.connector.poll()).controls;
    expect((await w.connector.controlResult(second, 'stopped', 0.01)).status).toBe(200);
    expect((await w.status(ref, bob.call)).structuredContent.status).toBe('stopped');
    expect((await page(owner, w.source.roomId)).text).toContain('id="no-workflows"');
  });

  it('a member stops their own workflow; another member sees it without a button and their stop is not found', async () => {
    const { w, bob, ref, bobCookie } = await walking();
    const carol = await w.member('carol');
    const carolCookie = await cookieOf(carol.id);
    const seen = await page(carolCookie, w.source.roomId);
    expect(seen.text).toContain(`data-workflow="${ref}"`);
    expect(seen.text).not.toContain(`aria-label="Emergency stop ${ref}"`);
    expect((await stop(carolCookie, w.source.roomId, ref)).status).toBe(404);
    expect((await w.status(ref, bob.call)).structuredContent.status).toBe('running');
    expect((await page(bobCookie, w.source.roomId)).text).toContain(`aria-label="Emergency stop ${ref}"`);
    expect((await stop(bobCookie, w.source.roomId, ref)).status).toBe(303);
    expect((await w.status(ref, bob.call)).structuredContent.status).toBe('stopping');
  });

  it('MC-12: a cross-origin POST with the session cookie, a non-member and another room are refused, and nothing stops', async () => {
    const { w, bob, ref, owner } = await walking();
    expect((await stop(owner, w.source.roomId, ref, 'https://evil.example')).status).toBe(403);
    const stranger = await embodimentWorld(server.h, clock.now, clients);
    const strangerCookie = await cookieOf(stranger.owner.accountId);
    expect((await stop(strangerCookie, w.source.roomId, ref)).status).toBe(404);
    // The stranger's own room does not reach a workflow of this one.
    expect((await stop(strangerCookie, stranger.source.roomId, ref)).status).toBe(404);
    expect((await stop(owner, w.source.roomId, 'wfr_unknown')).status).toBe(404);
    expect((await stop('', w.source.roomId, ref)).status).toBe(401);
    expect((await w.status(ref, bob.call)).structuredContent.status).toBe('running');
    expect((await w.connector.poll()).controls).toEqual([]);
  });

  it('the stop is a safety control: it still works after the account policy locks the Shared Live Room feature', async () => {
    const { w, bob, ref, owner } = await walking();
    await changeAccountPolicy(await accountDeps(server.h.testStore.store), ROOM_FEATURE_LOCKED, w.owner.accountId, {
      features: { shared_live_room: false },
    });
    expect((await stop(owner, w.source.roomId, ref)).status).toBe(303);
    expect((await w.status(ref, bob.call)).structuredContent.status).toBe('stopping');
  });
});
