// Issue 27 item 12: an erased account's id must not survive in another owner's used invite
// (`used_by`), and `subjects show` must count that reference while it exists. The invite row is
// the inviter's, so erase clears the reference and keeps the row (it stays used: single use holds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/domain/hashing.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { createRoom } from '../src/service/rooms/createRoom.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { removeMember } from '../src/service/rooms/removeMember.js';
import { eraseSubject } from '../src/service/subjects/eraseSubject.js';
import { exportSubject } from '../src/service/subjects/exportSubject.js';
import { summarizeSubject } from '../src/service/subjects/summarizeSubject.js';
import {
  insertActiveAccounts,
  refusal,
  roomFeatureUnlessLocked,
  roomPrincipal,
  roomTestDeps,
} from './support/roomDeps.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const SECRET = 'subject-invite-test-secret';

describe.each(storeFlavours())("an erased account in another owner's used invite on $name", (flavour) => {
  let t: TestStore;
  let rooms: RoomDeps;
  const clock = 1_800_000_000_000;
  const subjects = () => ({ store: t.store, instanceSecret: SECRET, now: () => clock });

  beforeAll(async () => {
    t = await flavour.create();
    await insertActiveAccounts(t.store, ['acct_owner', 'acct_guest'], clock);
    rooms = roomTestDeps(t.store, SECRET, roomFeatureUnlessLocked(new Set()), () => clock);
  });
  afterAll(async () => t?.dispose());

  it('subjects show counts it, export shows it without the inviter, erase clears used_by and keeps the invite used', async () => {
    const owner = roomPrincipal('acct_owner', 'helix.rooms.manage');
    const roomId = (await createRoom(rooms, owner, 'subject-room-1', { title: 'R' })).body.room.room_id;
    const invite = await createInvite(rooms, 'acct_owner', roomId, { role: 'member' });
    await acceptInvite(rooms, 'acct_guest', invite.token);
    await removeMember(rooms, 'acct_owner', roomId, 'acct_guest');

    const shown = await summarizeSubject(subjects(), 'acct_guest');
    expect(shown.records).toMatchObject({ account: 1, room_memberships: 1, room_invites_used: 1 });
    const exported = await exportSubject(subjects(), 'acct_guest');
    const used = (exported.records as Record<string, Record<string, unknown>[]>).room_invites_used;
    expect(used).toEqual([
      { room_id: roomId, role: 'member', used_at: new Date(clock).toISOString(), used_by: 'acct_guest' },
    ]);

    const erased = await eraseSubject(subjects(), {
      accountId: 'acct_guest',
      requestedBy: 'operator',
      idempotencyKey: 'erase-guest-0001',
    });
    expect(erased.body.records).toMatchObject({ room_invites_used: 1, room_memberships: 1 });
    const [row] = await t.store.read.rooms.listInvites(roomId, 10);
    expect(row).toMatchObject({ inviteRef: invite.invite_ref, usedAt: clock, usedBy: null, createdBy: 'acct_owner' });
    // Nothing names the account any more, and show says so truthfully.
    expect(await refusal(summarizeSubject(subjects(), 'acct_guest'))).toMatchObject({ code: 'subject_not_found' });
    // The invite stays used: its token seats no one, the erased account included.
    expect(await t.store.read.rooms.consumeInvite(sha256Hex(invite.token), 'acct_guest', clock)).toBeUndefined();
    // The inviter's own record of it is untouched.
    expect((await summarizeSubject(subjects(), 'acct_owner')).records).toMatchObject({ room_invites: 1 });
  });
});
