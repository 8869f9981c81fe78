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
import { createRoom } from '../src/service/rooms/createRoom.js';
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
  const policy = () => ({ ...DENY_ALL, features: featuresFrom(['shared_live_room', 'developer']) });

  const newSource = async (): Promise<RoomSourceRecord> => {
    const roomId = (await createRoom(deps, alice, `room-key-${++seq}`, { title: 'W' })).body.room.room_id;
    const made = await createSource(deps, alice, roomId, `source-key-${++seq}`, {
      domain_adapter: 'game.minecraft.readonly.v1',
      world_id: WORLD,
      source_label: 'S',
      ttl_ms: 3_600_000,
    });
    await claimDelivery(deps, 'acct_alice', made.body.credential_delivery?.claim_handle ?? '');
    const row = await t.store.read.roomSources.getSource(made.body.source.source_id);
    if (row === undefined) throw new Error('source row missing');
    return row;
  };

  beforeAll(async () => {
    t = await flavour.create();
    deps = roomTestDeps(t.store, 'ingress-test-secret', policy, () => clock);
    await insertActiveAccounts(t.store, ['acct_alice'], clock);
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
