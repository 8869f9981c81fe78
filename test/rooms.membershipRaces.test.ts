// Issue 36: three races the bindings history checker (test/history.bindings.test.ts) found on real
// PostgreSQL, reduced to the use cases. Each is a read-then-write that SQLite (BEGIN IMMEDIATE) and
// PGlite (one connection) serialize, and PostgreSQL under READ COMMITTED does not. They are open
// (the service is unchanged here): on the postgres flavour these tests are expected to fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat } from '../src/service/chats/createChat.js';
import { inspectObserverBinding } from '../src/service/chats/inspectObserverBinding.js';
import { issueObserverBinding } from '../src/service/chats/issueObserverBinding.js';
import { acceptConsent } from '../src/service/rooms/acceptConsent.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { createRoom } from '../src/service/rooms/createRoom.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { removeMember } from '../src/service/rooms/removeMember.js';
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
