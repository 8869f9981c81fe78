import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomMemberRecord, RoomRecord, RunRoomBindingRecord } from '../src/domain/rooms.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const OWNER_A = 'a'.repeat(64);
const OWNER_B = 'b'.repeat(64);
const T = 4_102_444_800_000; // 2100-01-01: BIGINT instants round-trip exactly

const room = (roomId: string, ownerAccountId: string, tenantHash = 't'.repeat(64)): RoomRecord => ({
  roomId,
  title: 'Shared world',
  status: 'active',
  ownerAccountId,
  tenantHash,
  ownerHash: OWNER_A,
  consentVersion: 1,
  createdAt: T,
  updatedAt: T,
});

const member = (roomId: string, accountId: string, extra: Partial<RoomMemberRecord> = {}): RoomMemberRecord => ({
  roomId,
  accountId,
  role: 'member',
  acceptedConsentVersion: 1,
  consentReceiptRef: `rcr_${'c'.repeat(32)}`,
  joinedAt: T,
  removedAt: null,
  ...extra,
});

const binding = (ref: string, runId: string, roomId: string, ownerHash = OWNER_A): RunRoomBindingRecord => ({
  bindingRef: ref,
  runId,
  roomId,
  ownerHash,
  accountId: 'acct_a',
  role: 'member',
  consentVersion: 1,
  consentReceiptRef: `rcr_${'c'.repeat(32)}`,
  status: 'active',
  createdAt: T,
  revokedAt: null,
});

const ref = (prefix: 'rrb' | 'rcb', n: number) => `${prefix}_${n.toString(16).padStart(32, '0')}`;
const roomId = (n: number) => `room_${n.toString(16).padStart(24, '0')}`;

describe.each(storeFlavours())('room repository on $name', (flavour) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await flavour.create();
  });
  afterAll(async () => t.dispose());

  it('PRE-01: round-trips a room, its consent version and a member, BIGINT instants included', async () => {
    const r = room(roomId(1), 'acct_a');
    await t.store.transaction(async (uow) => {
      await uow.rooms.insertRoom(r);
      await uow.rooms.insertConsentVersion({
        roomId: r.roomId,
        version: 1,
        text: 'x'.repeat(4000),
        publishedAt: T,
        publishedBy: 'acct_a',
      });
      await uow.rooms.saveMember(member(r.roomId, 'acct_a', { role: 'owner' }));
    });
    expect(await t.store.read.rooms.getRoom(r.roomId)).toEqual(r);
    expect((await t.store.read.rooms.getConsentVersion(r.roomId, 1))?.text).toHaveLength(4000);
    expect(await t.store.read.rooms.getMember(r.roomId, 'acct_a')).toEqual(
      member(r.roomId, 'acct_a', { role: 'owner' }),
    );
  });

  it('RREST-01: lists only rooms of the tenant where the account is a current member', async () => {
    const mine = room(roomId(2), 'acct_l');
    const otherTenant = room(roomId(3), 'acct_l', 'u'.repeat(64));
    const left = room(roomId(4), 'acct_x');
    for (const r of [mine, otherTenant, left]) await t.store.read.rooms.insertRoom(r);
    await t.store.read.rooms.saveMember(member(mine.roomId, 'acct_l'));
    await t.store.read.rooms.saveMember(member(otherTenant.roomId, 'acct_l'));
    await t.store.read.rooms.saveMember(member(left.roomId, 'acct_l', { removedAt: T }));
    const listed = await t.store.read.rooms.listRoomsOfMember('acct_l', 't'.repeat(64));
    expect(listed.map((r) => r.roomId)).toEqual([mine.roomId]);
    // D-09: the console and the operator list an account's rooms across tenants, still only as a current member.
    const everyTenant = await t.store.read.rooms.listRoomsOfMember('acct_l', null);
    expect(everyTenant.map((r) => r.roomId)).toEqual([mine.roomId, otherTenant.roomId]);
    const all = (await t.store.read.rooms.listAllRooms()).map((r) => r.roomId);
    expect(all).toEqual(expect.arrayContaining([mine.roomId, otherTenant.roomId, left.roomId]));
  });

  it('RREST-04: at most one active binding per run; a revoked row frees the slot and stays revoked (WD-07, WD-09)', async () => {
    const r = room(roomId(5), 'acct_a');
    await t.store.read.rooms.insertRoom(r);
    expect(await t.store.read.rooms.insertRunBindingIfFree(binding(ref('rrb', 1), 'run_slot000001', r.roomId))).toBe(
      true,
    );
    expect(await t.store.read.rooms.insertRunBindingIfFree(binding(ref('rrb', 2), 'run_slot000001', r.roomId))).toBe(
      false,
    );
    expect(await t.store.read.rooms.getRunBinding(ref('rrb', 2))).toBeUndefined();

    expect(await t.store.read.rooms.revokeRunBinding(OWNER_A, ref('rrb', 1), T + 1)).toBe('revoked');
    expect(await t.store.read.rooms.insertRunBindingIfFree(binding(ref('rrb', 3), 'run_slot000001', r.roomId))).toBe(
      true,
    );
    expect(await t.store.read.rooms.getRunBinding(ref('rrb', 1))).toMatchObject({
      status: 'revoked',
      revokedAt: T + 1,
    });
    expect((await t.store.read.rooms.getActiveRunBinding('run_slot000001'))?.bindingRef).toBe(ref('rrb', 3));
  });

  it('WD-02, WD-03: withdrawal matches the exact owner; a second one is already_revoked', async () => {
    const r = room(roomId(6), 'acct_a');
    await t.store.read.rooms.insertRoom(r);
    await t.store.read.rooms.insertRunBindingIfFree(binding(ref('rrb', 10), 'run_owner00001', r.roomId));
    expect(await t.store.read.rooms.revokeRunBinding(OWNER_B, ref('rrb', 10), T)).toBe('not_found');
    expect((await t.store.read.rooms.getRunBinding(ref('rrb', 10)))?.status).toBe('active');
    expect(await t.store.read.rooms.revokeRunBinding(OWNER_A, ref('rrb', 10), T)).toBe('revoked');
    expect(await t.store.read.rooms.revokeRunBinding(OWNER_A, ref('rrb', 10), T)).toBe('already_revoked');
    expect(await t.store.read.rooms.revokeRunBinding(OWNER_A, ref('rrb', 11), T)).toBe('not_found');

    const chat = { bindingRef: ref('rcb', 1), runId: 'run_owner00001', ownerHash: OWNER_A, chatSessionId: null };
    await t.store.read.rooms.insertChatBinding({ ...chat, status: 'active', createdAt: T, revokedAt: null });
    expect(await t.store.read.rooms.revokeChatBinding(OWNER_B, ref('rcb', 1), T)).toBe('not_found');
    expect(await t.store.read.rooms.revokeChatBinding(OWNER_A, ref('rcb', 1), T)).toBe('revoked');
    expect(await t.store.read.rooms.revokeChatBinding(OWNER_A, ref('rcb', 1), T)).toBe('already_revoked');
  });

  it('BRE-10: the schema refuses a binding without a valid consent version', async () => {
    const r = room(roomId(7), 'acct_a');
    await t.store.read.rooms.insertRoom(r);
    const invalid = { ...binding(ref('rrb', 20), 'run_consent0001', r.roomId), consentVersion: 0 };
    await expect(t.store.read.rooms.insertRunBindingIfFree(invalid)).rejects.toThrow();
    expect(await t.store.read.rooms.getActiveRunBinding('run_consent0001')).toBeUndefined();
  });

  it('D-09: an invite is used once, never after it expires', async () => {
    const r = room(roomId(8), 'acct_a');
    await t.store.read.rooms.insertRoom(r);
    await t.store.read.rooms.saveMember(member(r.roomId, 'acct_a', { role: 'owner' }));
    const invite = {
      roomId: r.roomId,
      role: 'observer' as const,
      createdBy: 'acct_a',
      createdAt: T,
      usedAt: null,
      usedBy: null,
      revokedAt: null,
    };
    await t.store.read.rooms.insertInvite({
      ...invite,
      inviteRef: `rinv_${'f'.repeat(32)}`,
      tokenHash: 'f'.repeat(64),
      expiresAt: T + 1000,
    });
    await t.store.read.rooms.insertInvite({
      ...invite,
      inviteRef: `rinv_${'e'.repeat(32)}`,
      tokenHash: 'e'.repeat(64),
      expiresAt: T + 1000,
    });
    const uses = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.store.transaction((uow) => uow.rooms.consumeInvite('f'.repeat(64), 'acct_b', T + 10)),
      ),
    );
    expect(uses.filter((u) => u !== undefined)).toHaveLength(1);
    expect(uses.find((u) => u !== undefined)).toMatchObject({ role: 'observer', usedBy: 'acct_b', usedAt: T + 10 });
    expect(await t.store.read.rooms.consumeInvite('e'.repeat(64), 'acct_b', T + 1000)).toBeUndefined();
  });

  it('D-09: the consent version advances by compare-and-set only', async () => {
    const r = room(roomId(9), 'acct_a');
    await t.store.read.rooms.insertRoom(r);
    expect(await t.store.read.rooms.advanceConsentVersion(r.roomId, 1, T + 5)).toBe(true);
    expect(await t.store.read.rooms.advanceConsentVersion(r.roomId, 1, T + 6)).toBe(false);
    expect(await t.store.read.rooms.getRoom(r.roomId)).toMatchObject({ consentVersion: 2, updatedAt: T + 5 });
  });
});
