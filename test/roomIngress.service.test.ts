// The source ingress use cases (src/service/roomIngress/) on every store flavour, PGlite included
// (the end-to-end test runs the server on SQLite and PostgreSQL): the request ledger, the epoch
// rule and the probe round trip, each in its transaction (ING-02, ING-03, PRB-02).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENY_ALL, featuresFrom } from '../src/domain/accountPolicy.js';
import { MINECRAFT_INVENTORY_CHECK_PROBE } from '../src/domain/environmentAdapterProfiles.js';
import type { RoomSourceRecord } from '../src/domain/roomSources.js';
import { pollProbes } from '../src/service/roomIngress/pollProbes.js';
import { recordHeartbeat } from '../src/service/roomIngress/recordHeartbeat.js';
import { recordProbeResult } from '../src/service/roomIngress/recordProbeResult.js';
import { recordWorldEvents } from '../src/service/roomIngress/recordWorldEvents.js';
import { submitManifest } from '../src/service/roomIngress/submitManifest.js';
import { authenticateIngressSource } from '../src/service/roomIngress/sourceCredential.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { createRoom } from '../src/service/rooms/createRoom.js';
import { removeMember } from '../src/service/rooms/removeMember.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { createSource } from '../src/service/roomSources/createSource.js';
import {
  batchBody,
  heartbeatBody,
  manifestBody,
  newEpoch,
  pollBody,
  probeResultBody,
  snapshot,
} from './support/ingressBodies.js';
import { insertPendingProbe } from './support/ingressSources.js';
import { insertActiveAccounts, refusal, roomPrincipal, roomTestDeps } from './support/roomDeps.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const WORLD = 'minecraft:overworld';
const SCOPES = 'helix.rooms.read helix.rooms.manage helix.room_sources.manage';

describe.each(storeFlavours())('the source ingress use cases on $name', (flavour) => {
  let t: TestStore;
  let deps: RoomDeps;
  let clock = 1_800_000_000_000;
  let seq = 0;
  const alice = roomPrincipal('acct_alice', SCOPES);
  const bob = roomPrincipal('acct_bob', SCOPES);
  /** Accounts whose policy has lost shared_live_room (SRC-06). */
  const locked = new Set<string>();
  const policy = (accountId: string) =>
    locked.has(accountId)
      ? { ...DENY_ALL, features: featuresFrom(['developer']) }
      : { ...DENY_ALL, features: featuresFrom(['shared_live_room', 'developer']) };
  /** The last claimed bearer, for the ingress authentication. */
  let bearer = '';

  const newSource = async (creator = alice, roomId?: string): Promise<RoomSourceRecord> => {
    const room = roomId ?? (await createRoom(deps, creator, `room-key-${++seq}`, { title: 'W' })).body.room.room_id;
    const made = await createSource(deps, creator, room, `source-key-${++seq}`, {
      domain_adapter: 'game.minecraft.readonly.v1',
      world_id: WORLD,
      source_label: 'S',
      ttl_ms: 3_600_000,
    });
    bearer = (await claimDelivery(deps, creator.accountId, made.body.credential_delivery?.claim_handle ?? ''))
      .token_value;
    const row = await t.store.read.roomSources.getSource(made.body.source.source_id);
    if (row === undefined) throw new Error('source row missing');
    return row;
  };
  /** Bob as a second owner of a room of alice's, with a source of his own in it, admitted. */
  const bobsSource = async () => {
    const roomId = (await createRoom(deps, alice, `room-key-${++seq}`, { title: 'W' })).body.room.room_id;
    await acceptInvite(deps, 'acct_bob', (await createInvite(deps, 'acct_alice', roomId, { role: 'owner' })).token);
    const source = await newSource(bob, roomId);
    const epoch = newEpoch();
    await submitManifest(deps, source, manifestBody(epoch, clock, WORLD));
    return { roomId, source, bearer, epoch };
  };

  beforeAll(async () => {
    t = await flavour.create();
    deps = roomTestDeps(t.store, 'ingress-test-secret', policy, () => clock);
    await insertActiveAccounts(t.store, ['acct_alice', 'acct_bob'], clock);
  });
  afterAll(async () => t.dispose());

  it('ING-02: one request identity per source; a retry writes nothing, another body is refused, a refusal records nothing', async () => {
    const source = await newSource();
    const epoch = newEpoch();
    const manifest = manifestBody(epoch, clock, WORLD);
    const admitted = await submitManifest(deps, source, manifest);
    expect(admitted.replayed).toBe(false);
    const again = await submitManifest(deps, source, manifest);
    expect([again.replayed, again.body]).toEqual([true, admitted.body]);
    expect((await t.store.read.roomSources.getCurrentAdmission(source.sourceId))?.admissionId).toBe(
      (admitted.body as { admission_id: string }).admission_id,
    );
    expect(await t.store.read.roomIngress.getRequest(source.sourceId, manifest.request_id)).toMatchObject({
      route: 'manifest',
      responseJson: JSON.stringify(admitted.body),
    });
    expect(await refusal(submitManifest(deps, source, { ...manifest, protocol_version: '1.20.2' }))).toMatchObject({
      code: 'ingress_request_replayed',
    });
    const early = heartbeatBody(newEpoch(), clock, null);
    expect(await refusal(recordHeartbeat(deps, source, early))).toMatchObject({
      code: 'environment_adapter_admission_required',
    });
    expect(await t.store.read.roomIngress.getRequest(source.sourceId, early.request_id)).toBeUndefined();
  });

  it("SRC-06: removing the owner who created a source revokes it; the connector's next call is invalid_token", async () => {
    const { roomId, source, bearer: bobsBearer } = await bobsSource();
    expect((await authenticateIngressSource(deps, source.sourceId, bobsBearer)).sourceId).toBe(source.sourceId);
    await removeMember(deps, 'acct_alice', roomId, 'acct_bob');
    expect(await refusal(authenticateIngressSource(deps, source.sourceId, bobsBearer))).toMatchObject({
      code: 'invalid_token',
    });
    expect((await t.store.read.roomSources.getSource(source.sourceId))?.status).toBe('revoked');
  });

  it('SRC-06: a source whose creator is no longer an owner by any path is revoked at its next call', async () => {
    const { roomId, source, bearer: bobsBearer } = await bobsSource();
    // The membership changed without the revocation a removal does (a removal written before it existed).
    const member = await t.store.read.rooms.getMember(roomId, 'acct_bob');
    await t.store.read.rooms.saveMember({ ...member!, removedAt: clock });
    expect(await refusal(authenticateIngressSource(deps, source.sourceId, bobsBearer))).toMatchObject({
      code: 'invalid_token',
    });
    expect(await t.store.read.roomSources.getSource(source.sourceId)).toMatchObject({
      status: 'revoked',
      credentialHash: null,
    });
    expect(await t.store.read.roomSources.getCurrentAdmission(source.sourceId)).toBeUndefined();
  });

  it("SRC-06, SLR-12: a source whose creator's policy lost shared_live_room is refused feature_not_enabled, and its admission ends", async () => {
    const source = await newSource();
    const sourceBearer = bearer;
    const epoch = newEpoch();
    await submitManifest(deps, source, manifestBody(epoch, clock, WORLD));
    locked.add('acct_alice');
    try {
      expect(await refusal(authenticateIngressSource(deps, source.sourceId, sourceBearer))).toMatchObject({
        code: 'feature_not_enabled',
        status: 403,
        feature: 'shared_live_room',
      });
      expect(await t.store.read.roomSources.getCurrentAdmission(source.sourceId)).toBeUndefined();
      // A stranger's bearer still learns nothing: the one refusal, before the policy is looked at.
      expect(await refusal(authenticateIngressSource(deps, source.sourceId, `hlxsrc_${'A'.repeat(43)}`))).toMatchObject(
        { code: 'invalid_token' },
      );
    } finally {
      locked.delete('acct_alice');
    }
    // The feature back, the source is still active: its producer starts over with a manifest.
    expect((await authenticateIngressSource(deps, source.sourceId, sourceBearer)).status).toBe('active');
    expect(await refusal(recordHeartbeat(deps, source, heartbeatBody(epoch, clock, null)))).toMatchObject({
      code: 'environment_adapter_admission_required',
    });
  });

  it('ING-03, PRB-02: a batch and a probe round trip store their observations and close the probe', async () => {
    const source = await newSource();
    const epoch = newEpoch();
    await submitManifest(deps, source, manifestBody(epoch, clock, WORLD));
    const batch = await recordWorldEvents(deps, source, batchBody(epoch, clock, WORLD, [snapshot(), snapshot()]));
    expect((batch.body as { accepted: number }).accepted).toBe(2);
    expect((await t.store.read.roomIngress.getStatus(source.sourceId))?.lastObservedAt).toBe(clock);
    const probeId = await insertPendingProbe(t.store, source.sourceId, clock, { ttlMs: 10_000 });
    const poll = await pollProbes(deps, source, pollBody(epoch, clock));
    expect((poll.body as { probes: { probe_id: string }[] }).probes.map((p) => p.probe_id)).toEqual([probeId]);
    clock += 1_000;
    const unsupported = probeResultBody(
      epoch,
      clock,
      { probe_id: probeId, probe_type: MINECRAFT_INVENTORY_CHECK_PROBE },
      false,
    );
    const answered = await recordProbeResult(deps, source, unsupported);
    const observationId = (answered.body as { observation_id: string }).observation_id;
    expect(await t.store.read.roomIngress.getProbe(probeId)).toMatchObject({
      status: 'unsupported',
      observationId,
      answeredAt: clock,
    });
    expect(JSON.parse((await t.store.read.roomIngress.getObservation(observationId))?.payloadJson ?? '')).toEqual({
      probe_type: MINECRAFT_INVENTORY_CHECK_PROBE,
      result: null,
      status: 'unsupported',
    });
  });
});
