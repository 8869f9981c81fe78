import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRun } from '../../../test/support/runRecord.js';
import { storeFlavours, type TestStore } from '../../../test/support/stores.js';
import { DENY_ALL, featuresFrom } from '../../domain/accountPolicy.js';
import { createAdapterRegistry } from '../../domain/environmentAdapterRegistry.js';
import { HelixError } from '../../domain/errors.js';
import type { CapabilityContext } from '../capability.js';
import { roomCapabilities } from './roomCapabilities.js';

const T = 1_900_000_000_000;
const OWNER = 'o'.repeat(64);
const ROOM = `room_${'a'.repeat(24)}`;
const SOURCE = `rsb_${'b'.repeat(32)}`;
const RUN = 'run_probe0000001';
const RECEIPT = `rcr_${'c'.repeat(32)}`;
/** The source's creator keeps the room feature, so its source still authorizes (SRC-06). */
const ADMIT_OWNER = { ...DENY_ALL, features: featuresFrom(['shared_live_room']) };

/** The rows a bound, admitted room leaves behind, written straight through the ports. */
const seed = async (t: TestStore): Promise<void> => {
  const store = t.store.read;
  const profile = createAdapterRegistry({ fixturesEnabled: false }).resolve(
    'game.minecraft.readonly.v1',
    'minecraft:overworld',
  );
  await store.runs.insert({ ...baseRun(RUN), ownerHash: OWNER });
  await store.rooms.insertRoom({
    roomId: ROOM,
    title: 'World',
    status: 'active',
    ownerAccountId: 'acct_a',
    tenantHash: 't'.repeat(64),
    ownerHash: OWNER,
    consentVersion: 1,
    createdAt: T,
    updatedAt: T,
  });
  await store.rooms.saveMember({
    roomId: ROOM,
    accountId: 'acct_a',
    role: 'owner',
    acceptedConsentVersion: 1,
    consentReceiptRef: RECEIPT,
    joinedAt: T,
    removedAt: null,
  });
  await store.rooms.insertRunBindingIfFree({
    bindingRef: `rrb_${'d'.repeat(32)}`,
    runId: RUN,
    roomId: ROOM,
    ownerHash: OWNER,
    accountId: 'acct_a',
    role: 'owner',
    consentVersion: 1,
    consentReceiptRef: RECEIPT,
    status: 'active',
    createdAt: T,
    revokedAt: null,
  });
  await store.roomSources.insertSource({
    sourceId: SOURCE,
    roomId: ROOM,
    domainAdapter: 'game.minecraft.readonly.v1',
    worldId: 'minecraft:overworld',
    label: 'Survival',
    profileId: profile.profile.profile_id,
    profileVersion: profile.profile.profile_version,
    profileHash: profile.contractHash,
    status: 'active',
    credentialHash: 'e'.repeat(64),
    credentialCreatedAt: T,
    actionCredentialHash: null,
    expiresAt: T + 3_600_000,
    rotatedAt: null,
    revokedAt: null,
    createdBy: 'acct_a',
    ownerHash: OWNER,
    createdAt: T,
  });
  await store.roomSources.insertAdmission({
    admissionId: 'adm_probe',
    sourceId: SOURCE,
    ownerHash: OWNER,
    profileId: profile.profile.profile_id,
    profileVersion: profile.profile.profile_version,
    profileHash: profile.contractHash,
    manifestId: 'manifest-1',
    manifestHash: 'f'.repeat(64),
    producerEpochHash: '1'.repeat(64),
    admittedAt: T,
    invalidatedAt: null,
  });
};

const failureOf = async (call: Promise<unknown>): Promise<string> => {
  try {
    await call;
    return 'resolved';
  } catch (err) {
    return err instanceof HelixError ? err.code : String((err as Error).name);
  }
};

// PRB-01 (docs/spec/shared-live-room-requirements.md §10): the probe's bounded wait.
describe.each(storeFlavours().slice(0, 1))('the inventory probe on $name', (flavour) => {
  let t: TestStore;
  /** The ids of the probes the capability asked, as the store received them. */
  const asked: string[] = [];
  beforeAll(async () => {
    t = await flavour.create();
    await seed(t);
    const ingress = t.store.read.roomIngress;
    const insert = ingress.insertProbe.bind(ingress);
    (ingress as { insertProbe: typeof insert }).insertProbe = async (probe) => {
      asked.push(probe.probeId);
      await insert(probe);
    };
  });
  const lastProbe = async () => t.store.read.roomIngress.getProbe(asked.at(-1) ?? '');
  afterAll(async () => t.dispose());

  const probeCapability = () => {
    const capabilities = roomCapabilities(
      t.store,
      { forAccount: async () => ADMIT_OWNER },
      { maxAgeMs: 60_000, adapterFixtures: false },
      { intervalMs: 1, waitMs: 5 },
    );
    const probe = capabilities.find((c) => c.id === 'com.casimirbot.minecraft.inventory.check');
    if (probe === undefined) throw new Error('no probe capability');
    return probe;
  };
  const context = (turn: number, signal = new AbortController().signal): CapabilityContext => ({
    runId: RUN,
    turn,
    signal,
    now: () => T + 1_000,
  });

  it('PRB-01: an unanswered probe ends typed room_probe_timeout and is expired, so a late answer is refused', async () => {
    expect(await failureOf(probeCapability().execute({ limit: 8 }, context(1)))).toBe('room_probe_timeout');
    expect(await lastProbe()).toMatchObject({ runId: RUN, turn: 1, status: 'expired', expiresAt: T + 1_005 });
    expect(await t.store.read.roomIngress.answerProbe(asked.at(-1) ?? '', 'completed', null, T + 1_001)).toBe(false);
  });

  it("PRB-01: the turn's abort signal ends the wait at once and expires the probe", async () => {
    const controller = new AbortController();
    controller.abort(new Error('turn cancelled'));
    const capability = roomCapabilities(
      t.store,
      { forAccount: async () => ADMIT_OWNER },
      { maxAgeMs: 60_000, adapterFixtures: false },
      { intervalMs: 60_000, waitMs: 600_000 },
    ).find((c) => c.id === 'com.casimirbot.minecraft.inventory.check');
    expect(await failureOf(capability?.execute({ limit: 8 }, context(2, controller.signal)) ?? Promise.resolve())).toBe(
      'AbortError',
    );
    expect(await lastProbe()).toMatchObject({ turn: 2, status: 'expired' });
  });
});
