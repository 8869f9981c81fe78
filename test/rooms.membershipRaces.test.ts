// Issue 36: races the bindings history checker (test/history.bindings.test.ts) found on real
// PostgreSQL, reduced to the use cases. Each was a read-then-write that SQLite (BEGIN IMMEDIATE)
// and PGlite (one connection) serialize, and PostgreSQL under READ COMMITTED does not; each now
// takes a row lock or writes conditionally (removeMember, acceptConsent, setMemberRole lock the
// member row; acceptInvite seats in one conditional statement; issueObserverBinding locks the chat
// and retires a handle only while it is unclaimed; disconnectObserver revokes before it reads the
// run-chat binding to close). All but the disconnect race fail on real PostgreSQL without the fixes
// (that one's window is narrow in-process; the bindings history found it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownershipOf } from '../src/auth/principal.js';
import { createChat } from '../src/service/chats/createChat.js';
import { disconnectObserver } from '../src/service/chats/disconnectObserver.js';
import { inspectObserverBinding } from '../src/service/chats/inspectObserverBinding.js';
import { issueObserverBinding } from '../src/service/chats/issueObserverBinding.js';
import { acceptConsent } from '../src/service/rooms/acceptConsent.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { claimChatBinding } from '../src/service/rooms/claimChatBinding.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { createRoom } from '../src/service/rooms/createRoom.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { removeMember } from '../src/service/rooms/removeMember.js';
import { baseRun } from './support/runRecord.js';
import { insertActiveAccounts, roomFeatureUnlessLocked, roomPrincipal, roomTestDeps } from './support/roomDeps.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const SECRET = 'membership-race-test-secret';
const ALL = 'helix.rooms.read helix.rooms.manage helix.agent_runs.write helix.agent_runs.read';
const TRIES = 20;

describe.each(storeFlavours())('membership and observer races on $name (issue 36)', (flavour) => {
  let t: TestStore;
  let deps: RoomDeps;
  let clock = 1_800_000_000_000;
  let seq = 0;
  const alice = roomPrincipal('acct_alice', ALL);

  /** A fresh room of alice's with `accountId` seated as a consenting member. */
  const roomWithMember = async (accountId: string): Promise<string> => {
    await insertActiveAccounts(t.store, [accountId], clock);
    const roomId = (await createRoom(deps, alice, `race-room-${++seq}`, { title: 'Race' })).body.room.room_id;
    const { token } = await createInvite(deps, 'acct_alice', roomId, { role: 'member' });
    const joined = await acceptInvite(deps, accountId, token);
    await acceptConsent(deps, accountId, roomId, joined.consent.version);
    return roomId;
  };

  beforeAll(async () => {
    t = await flavour.create();
    await insertActiveAccounts(t.store, ['acct_alice'], clock);
    deps = roomTestDeps(t.store, SECRET, roomFeatureUnlessLocked(new Set()), () => ++clock);
  });
  afterAll(async () => t?.dispose());

  it('D-09: of two concurrent removals of one member, exactly one succeeds (the other finds no member)', async () => {
    const bothSucceeded: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const accountId = `acct_twice${i}`;
      const roomId = await roomWithMember(accountId);
      const settled = await Promise.allSettled([
        removeMember(deps, 'acct_alice', roomId, accountId),
        removeMember(deps, 'acct_alice', roomId, accountId),
      ]);
      if (settled.every((s) => s.status === 'fulfilled')) bothSucceeded.push(i);
    }
    expect(bothSucceeded, 'tries where both removals answered success').toEqual([]);
  });

  it('D-09, BRE-04: a consent accepted while the member is removed never seats the removed member again', async () => {
    const reseated: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const accountId = `acct_consent${i}`;
      const roomId = await roomWithMember(accountId);
      const [consented, removed] = await Promise.allSettled([
        acceptConsent(deps, accountId, roomId, 1),
        removeMember(deps, 'acct_alice', roomId, accountId),
      ]);
      const member = await t.store.read.rooms.getMember(roomId, accountId);
      // The removal answered success; whichever came first, the member must end removed.
      if (removed.status === 'fulfilled' && consented.status === 'fulfilled' && member?.removedAt === null)
        reseated.push(i);
    }
    expect(reseated, 'tries where the removed member was current again, without an invite').toEqual([]);
  });

  it('D-09: of two invites accepted at once by one removed member, exactly one seats it', async () => {
    const seatedTwice: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const accountId = `acct_rejoin${i}`;
      const roomId = await roomWithMember(accountId);
      await removeMember(deps, 'acct_alice', roomId, accountId);
      const invites = await Promise.all([
        createInvite(deps, 'acct_alice', roomId, { role: 'member' }),
        createInvite(deps, 'acct_alice', roomId, { role: 'member' }),
      ]);
      const joined = await Promise.allSettled(invites.map((invite) => acceptInvite(deps, accountId, invite.token)));
      if (joined.every((j) => j.status === 'fulfilled')) seatedTwice.push(i);
    }
    expect(seatedTwice, 'tries where both joins answered success').toEqual([]);
  });

  it('OBS-16, WD-09: a claim of a handle and a new issue for its chat at once: never both succeed', async () => {
    const both: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const chat = await createChat(deps, 'acct_alice', `Claim race ${i}`);
      const { claim_handle } = await issueObserverBinding(deps, 'acct_alice', { chat_session_id: chat.chatId });
      const runId = `run_mrace${String(++seq).padStart(9, '0')}`;
      await t.store.read.runs.insert({ ...baseRun(runId), ownerHash: ownershipOf(alice, SECRET).ownerHash });
      // Claimed first, the run holds the chat and the issue is refused; issued first, the handle is retired.
      const settled = await Promise.allSettled([
        claimChatBinding(deps, alice, { claim_handle, run_id: runId }),
        issueObserverBinding(deps, 'acct_alice', { chat_session_id: chat.chatId }),
      ]);
      if (settled.every((r) => r.status === 'fulfilled')) both.push(i);
    }
    expect(both, 'tries where the claim and the new handle both succeeded').toEqual([]);
  });

  it('WD-06, WD-07: a claim and a disconnect of its binding at once never leave the run writing into the chat', async () => {
    const leftActive: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const chat = await createChat(deps, 'acct_alice', `Disconnect race ${i}`);
      const issued = await issueObserverBinding(deps, 'acct_alice', { chat_session_id: chat.chatId });
      const runId = `run_mrace${String(++seq).padStart(9, '0')}`;
      await t.store.read.runs.insert({ ...baseRun(runId), ownerHash: ownershipOf(alice, SECRET).ownerHash });
      const [claimed, disconnected] = await Promise.allSettled([
        claimChatBinding(deps, alice, { claim_handle: issued.claim_handle, run_id: runId }),
        disconnectObserver(deps, 'acct_alice', issued.binding_ref),
      ]);
      // The disconnect answered success: whichever came first, no run-chat binding may stay active.
      if (claimed.status !== 'fulfilled' || disconnected.status !== 'fulfilled') continue;
      const binding = await t.store.read.rooms.getChatBinding(claimed.value.body.binding_ref);
      if (binding?.status === 'active') leftActive.push(i);
    }
    expect(leftActive, 'tries where the chat binding outlived its disconnected observer').toEqual([]);
  });

  it('OBS-16: of two claim handles issued at once for one chat, at most one stays claimable', async () => {
    const twoPending: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const chat = await createChat(deps, 'acct_alice', `Race ${i}`);
      const issued = await Promise.allSettled([
        issueObserverBinding(deps, 'acct_alice', { chat_session_id: chat.chatId }),
        issueObserverBinding(deps, 'acct_alice', { chat_session_id: chat.chatId }),
      ]);
      const refs = issued.flatMap((r) => (r.status === 'fulfilled' ? [r.value.binding_ref] : []));
      const views = await Promise.all(refs.map((ref) => inspectObserverBinding(deps, 'acct_alice', ref)));
      if (views.filter((v) => v.binding_status === 'pending_claim').length > 1) twoPending.push(i);
    }
    expect(twoPending, 'tries where both handles stayed pending_claim').toEqual([]);
  });
});
