// Issue 27 item 2 (D-09 "single-use, expiring invite link", §20 room invites): an invite carries
// its issuer's authority, so it ends with the issuer's ownership; owners list and revoke invites.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/domain/hashing.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { createRoomFor } from '../src/service/rooms/createRoomFor.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { listInvites } from '../src/service/rooms/listInvites.js';
import { removeMember } from '../src/service/rooms/removeMember.js';
import { revokeInvite } from '../src/service/rooms/revokeInvite.js';
import { setMemberRole } from '../src/service/rooms/setMemberRole.js';
import { insertActiveAccounts, refusal, roomFeatureUnlessLocked, roomTestDeps } from './support/roomDeps.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const ACCOUNTS = ['acct_alice', 'acct_carol', 'acct_dave', 'acct_erin', 'acct_lock'];

describe.each(storeFlavours())('room invites on $name (issue 27 item 2, D-09)', (flavour) => {
  let t: TestStore;
  let deps: RoomDeps;
  let clock = 1_800_000_000_000;
  const locked = new Set<string>();
  let seq = 0;
  const newRoom = async () => (await createRoomFor(deps, 'acct_alice', 'acme', `Room ${++seq}`)).room_id;
  /** The account joins the room through an invite of alice's with the role. */
  const join = async (roomId: string, accountId: string, role: string) =>
    acceptInvite(deps, accountId, (await createInvite(deps, 'acct_alice', roomId, { role })).token);

  beforeAll(async () => {
    t = await flavour.create();
    await insertActiveAccounts(t.store, ACCOUNTS, clock);
    deps = roomTestDeps(t.store, 'invite-test-secret', roomFeatureUnlessLocked(locked), () => clock);
  });
  afterAll(async () => t?.dispose());

  it("D-09: a removed owner's unused invites are revoked with it: they seat no new owner, nor the removed owner", async () => {
    const roomId = await newRoom();
    await join(roomId, 'acct_carol', 'owner');
    const forDave = await createInvite(deps, 'acct_carol', roomId, { role: 'owner', ttlMs: 7 * 86_400_000 });
    const forReentry = await createInvite(deps, 'acct_carol', roomId, { role: 'owner' });
    const used = await createInvite(deps, 'acct_carol', roomId, { role: 'member' });
    await acceptInvite(deps, 'acct_erin', used.token);

    const removed = await removeMember(deps, 'acct_alice', roomId, 'acct_carol');
    expect(removed).toMatchObject({ revoked_invites: 2, revoked_sources: 0 });
    expect(await refusal(acceptInvite(deps, 'acct_dave', forDave.token))).toMatchObject({ code: 'not_found' });
    expect(await refusal(acceptInvite(deps, 'acct_carol', forReentry.token))).toMatchObject({ code: 'not_found' });
    const { invites } = await listInvites(deps, 'acct_alice', roomId);
    const byRef = new Map(invites.map((i) => [i.invite_ref, i]));
    expect(byRef.get(forDave.invite_ref)).toMatchObject({ status: 'revoked', created_by: 'acct_carol', used_by: null });
    expect(byRef.get(forReentry.invite_ref)?.status).toBe('revoked');
    // A used invite stays what it was: used, by erin, who stays a member.
    expect(byRef.get(used.invite_ref)).toMatchObject({ status: 'used', used_by: 'acct_erin', revoked_at: null });
  });

  it('D-09: an owner demoted to member loses its unused invites too; a leaving owner as well', async () => {
    const roomId = await newRoom();
    await join(roomId, 'acct_carol', 'owner');
    const issued = await createInvite(deps, 'acct_carol', roomId, { role: 'owner' });
    expect(await setMemberRole(deps, 'acct_alice', roomId, 'acct_carol', 'member')).toMatchObject({
      revoked_invites: 1,
    });
    expect(await refusal(acceptInvite(deps, 'acct_dave', issued.token))).toMatchObject({ code: 'not_found' });

    await setMemberRole(deps, 'acct_alice', roomId, 'acct_carol', 'owner');
    const again = await createInvite(deps, 'acct_carol', roomId, { role: 'member' });
    expect(await removeMember(deps, 'acct_carol', roomId, 'acct_carol')).toMatchObject({ revoked_invites: 1 });
    expect(await refusal(acceptInvite(deps, 'acct_dave', again.token))).toMatchObject({ code: 'not_found' });
    // Alice's own invites are untouched by carol's departure.
    const alices = await createInvite(deps, 'acct_alice', roomId, { role: 'member' });
    expect((await acceptInvite(deps, 'acct_dave', alices.token)).member.role).toBe('member');
  });

  it('D-09: an invite whose issuer is no longer an owner seats no one, even if its row was never revoked', async () => {
    const roomId = await newRoom();
    await join(roomId, 'acct_carol', 'owner');
    const issued = await createInvite(deps, 'acct_carol', roomId, { role: 'owner' });
    // As a removal written before revocation existed left it: the member removed, the invite untouched.
    const carol = await t.store.read.rooms.getMember(roomId, 'acct_carol');
    await t.store.read.rooms.saveMember({ ...carol!, removedAt: clock });
    expect(await refusal(acceptInvite(deps, 'acct_dave', issued.token))).toMatchObject({ code: 'not_found' });
    expect(
      (await t.store.read.rooms.listInvites(roomId, 10)).find((i) => i.inviteRef === issued.invite_ref),
    ).toMatchObject({ usedAt: null, usedBy: null });
  });

  it('D-09: an owner lists invites with their status and revokes one by reference, once', async () => {
    const roomId = await newRoom();
    const pending = await createInvite(deps, 'acct_alice', roomId, { role: 'observer' });
    clock += 1;
    const expiring = await createInvite(deps, 'acct_alice', roomId, { role: 'member', ttlMs: 60_000 });
    clock += 60_001;
    const listed = await listInvites(deps, 'acct_alice', roomId);
    // Newest first.
    expect(listed.invites.map((i) => [i.invite_ref, i.status, i.role])).toEqual([
      [expiring.invite_ref, 'expired', 'member'],
      [pending.invite_ref, 'pending', 'observer'],
    ]);
    expect(pending.invite_ref).toMatch(/^rinv_[0-9a-f]{32}$/);
    // Never the token or its hash.
    const text = JSON.stringify(listed);
    for (const secret of [pending.token, sha256Hex(pending.token), sha256Hex(expiring.token)])
      expect(text).not.toContain(secret);

    expect(await revokeInvite(deps, 'acct_alice', roomId, pending.invite_ref)).toEqual({
      invite_ref: pending.invite_ref,
      revocation_status: 'revoked',
    });
    expect((await revokeInvite(deps, 'acct_alice', roomId, pending.invite_ref)).revocation_status).toBe(
      'already_revoked',
    );
    expect(await refusal(acceptInvite(deps, 'acct_dave', pending.token))).toMatchObject({ code: 'not_found' });
    const after = (await listInvites(deps, 'acct_alice', roomId)).invites;
    expect(after.find((i) => i.invite_ref === pending.invite_ref)).toMatchObject({
      status: 'revoked',
      revoked_at: new Date(clock).toISOString(),
    });
  });

  it('refuses: a used invite, a malformed or unknown ref, another room’s invite, a non-owner, a stranger', async () => {
    const roomId = await newRoom();
    const other = await newRoom();
    const used = await createInvite(deps, 'acct_alice', roomId, { role: 'member' });
    await acceptInvite(deps, 'acct_carol', used.token);
    const elsewhere = await createInvite(deps, 'acct_alice', other, { role: 'member' });
    expect(await refusal(revokeInvite(deps, 'acct_alice', roomId, used.invite_ref))).toMatchObject({
      code: 'invalid_request',
    });
    for (const ref of ['rinv_nope', `rinv_${'0'.repeat(32)}`, elsewhere.invite_ref, used.token, ''])
      expect(await refusal(revokeInvite(deps, 'acct_alice', roomId, ref)), ref).toMatchObject({ code: 'not_found' });
    // carol is a member, not an owner; dave is no member at all.
    expect(await refusal(listInvites(deps, 'acct_carol', roomId))).toMatchObject({ code: 'room_role_forbidden' });
    expect(await refusal(revokeInvite(deps, 'acct_carol', roomId, used.invite_ref))).toMatchObject({
      code: 'room_role_forbidden',
    });
    expect(await refusal(listInvites(deps, 'acct_dave', roomId))).toMatchObject({ code: 'not_found' });
    expect(await refusal(revokeInvite(deps, 'acct_dave', other, elsewhere.invite_ref))).toMatchObject({
      code: 'not_found',
    });
    expect(await refusal(listInvites(deps, 'acct_alice', 'room_nope'))).toMatchObject({ code: 'not_found' });
    // Listing is a room read (SLR-11); revoking is cleanup and stays available under the lock.
    locked.add('acct_alice');
    try {
      expect(await refusal(listInvites(deps, 'acct_alice', other))).toMatchObject({ code: 'feature_not_enabled' });
      expect((await revokeInvite(deps, 'acct_alice', other, elsewhere.invite_ref)).revocation_status).toBe('revoked');
    } finally {
      locked.delete('acct_alice');
    }
  });
});
