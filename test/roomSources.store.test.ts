import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterAdmissionRecord, CredentialDeliveryRecord, RoomSourceRecord } from '../src/domain/roomSources.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const OWNER = 'a'.repeat(64);
const T = 4_102_444_800_000; // 2100-01-01: BIGINT instants round-trip exactly
const sourceId = (n: number) => `rsb_${n.toString(16).padStart(32, '0')}`;
const ROOM = `room_${'1'.padStart(24, '0')}`;

const source = (n: number, extra: Partial<RoomSourceRecord> = {}): RoomSourceRecord => ({
  sourceId: sourceId(n),
  roomId: ROOM,
  domainAdapter: 'game.minecraft.readonly.v1',
  worldId: 'minecraft:overworld',
  label: 'Survival server',
  profileId: 'game.minecraft.readonly.v1',
  profileVersion: 1,
  profileHash: 'f'.repeat(64),
  status: 'active',
  credentialHash: null,
  credentialCreatedAt: null,
  actionCredentialHash: null,
  expiresAt: T + 3_600_000,
  rotatedAt: null,
  revokedAt: null,
  createdBy: 'acct_owner',
  ownerHash: OWNER,
  createdAt: T + n,
  ...extra,
});

const delivery = (handleHash: string, src: string): CredentialDeliveryRecord => ({
  handleHash,
  sourceId: src,
  ownerHash: OWNER,
  createdAt: T,
  expiresAt: T + 1000,
  claimedAt: null,
  claimedBy: null,
});

const admission = (id: string, src: string): AdapterAdmissionRecord => ({
  admissionId: id,
  sourceId: src,
  ownerHash: OWNER,
  profileId: 'game.minecraft.readonly.v1',
  profileVersion: 1,
  profileHash: 'f'.repeat(64),
  manifestId: 'mf-1',
  manifestHash: 'e'.repeat(64),
  producerEpochHash: 'd'.repeat(64),
  admittedAt: T,
  invalidatedAt: null,
});

describe.each(storeFlavours())('room source repository on $name (0010_room_sources)', (flavour) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await flavour.create();
  });
  afterAll(async () => t.dispose());

  it('SRC-09: round-trips sources, lists a room oldest first and bounded', async () => {
    await t.store.transaction(async (uow) => {
      for (const n of [3, 1, 2]) await uow.roomSources.insertSource(source(n));
    });
    expect(await t.store.read.roomSources.getSource(sourceId(1))).toEqual(source(1));
    const listed = await t.store.read.roomSources.listSources(ROOM, 2);
    expect(listed.map((s) => s.sourceId)).toEqual([sourceId(1), sourceId(2)]);
    expect(await t.store.read.roomSources.listSources(`room_${'9'.repeat(24)}`, 10)).toEqual([]);
  });

  it('SRC-05: a delivery is claimed once, never after expiry; the bearer hash is set once per credential', async () => {
    const r = t.store.read.roomSources;
    await r.insertDelivery(delivery('h'.repeat(64), sourceId(1)));
    expect(await r.claimDelivery('h'.repeat(64), 'acct_owner', T + 1000)).toBeUndefined(); // expired
    const claimed = await r.claimDelivery('h'.repeat(64), 'acct_owner', T + 999);
    expect(claimed).toMatchObject({ sourceId: sourceId(1), claimedAt: T + 999, claimedBy: 'acct_owner' });
    expect(await r.claimDelivery('h'.repeat(64), 'acct_owner', T + 999)).toBeUndefined(); // single use
    const hashes = { credentialHash: 'c'.repeat(64), actionCredentialHash: 'a'.repeat(64) };
    expect(await r.setCredential(sourceId(1), hashes, T + 999)).toBe(true);
    expect(await r.setCredential(sourceId(1), { ...hashes, credentialHash: 'x'.repeat(64) }, T + 999)).toBe(false);
    expect(await r.getSource(sourceId(1))).toMatchObject(hashes);
  });

  it('SRC-06, M-02: rotation drops the bearer and action credential hashes; revocation ends the source for good; deliveries close', async () => {
    const r = t.store.read.roomSources;
    await r.insertDelivery(delivery('k'.repeat(64), sourceId(2)));
    expect(await r.closeDeliveries(sourceId(2), T + 5)).toBe(1);
    expect(await r.claimDelivery('k'.repeat(64), 'acct_owner', T + 6)).toBeUndefined();

    expect(await r.clearCredential(sourceId(1), T + 10)).toBe(true);
    expect(await r.getSource(sourceId(1))).toMatchObject({
      credentialHash: null,
      actionCredentialHash: null,
      rotatedAt: T + 10,
      status: 'active',
    });
    expect(await r.endSource(sourceId(1), 'revoked', T + 20)).toBe(true);
    expect(await r.endSource(sourceId(1), 'revoked', T + 30)).toBe(false);
    expect(await r.clearCredential(sourceId(1), T + 30)).toBe(false);
    expect(
      await r.setCredential(sourceId(1), { credentialHash: 'n'.repeat(64), actionCredentialHash: null }, T + 30),
    ).toBe(false);
    expect(await r.getSource(sourceId(1))).toMatchObject({ status: 'revoked', revokedAt: T + 20 });
    const third = { credentialHash: 't'.repeat(64), actionCredentialHash: 'u'.repeat(64) };
    expect(await r.setCredential(sourceId(3), third, T + 35)).toBe(true);
    expect(await r.endSource(sourceId(3), 'expired', T + 40)).toBe(true);
    expect(await r.getSource(sourceId(3))).toMatchObject({
      status: 'expired',
      revokedAt: null,
      credentialHash: null,
      actionCredentialHash: null,
    });
  });

  it('ING-02: the current admission is the newest valid one; invalidation clears them all', async () => {
    const r = t.store.read.roomSources;
    await r.insertAdmission(admission('adm_1', sourceId(2)));
    await r.insertAdmission({ ...admission('adm_2', sourceId(2)), admittedAt: T + 1 });
    expect((await r.getCurrentAdmission(sourceId(2)))?.admissionId).toBe('adm_2');
    expect(await r.invalidateAdmissions(sourceId(2), T + 2)).toBe(2);
    expect(await r.getCurrentAdmission(sourceId(2))).toBeUndefined();
  });
});
