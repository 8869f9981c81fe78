import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObservationRecord, ProbeRecord } from '../src/domain/roomObservations.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const OWNER = 'a'.repeat(64);
const T = 4_102_444_800_000; // 2100-01-01: BIGINT instants round-trip exactly
const SOURCE = `rsb_${'1'.padStart(32, '0')}`;
const ROOM = `room_${'1'.padStart(24, '0')}`;

const observation = (n: number, observedAt: number): ObservationRecord => ({
  observationId: `obs_${n.toString(16).padStart(32, '0')}`,
  sourceId: SOURCE,
  roomId: ROOM,
  ownerHash: OWNER,
  worldId: 'minecraft:overworld',
  admissionId: 'adm_1',
  profileId: 'game.minecraft.readonly.v1',
  profileVersion: 1,
  profileHash: 'f'.repeat(64),
  manifestId: 'manifest-request-0001',
  manifestHash: 'e'.repeat(64),
  producerEpochHash: 'd'.repeat(64),
  requestId: `request-${n}-0000000000`,
  eventId: `event-${n}-000000000000`,
  kind: 'snapshot',
  observedAt,
  receivedAt: T + 10_000,
  payloadJson: JSON.stringify({ n }),
  payloadSha256: 'c'.repeat(64),
  payloadBytes: JSON.stringify({ n }).length,
});

const probe = (n: number, extra: Partial<ProbeRecord> = {}): ProbeRecord => ({
  probeId: `prb_${n.toString(16).padStart(32, '0')}`,
  sourceId: SOURCE,
  roomId: ROOM,
  ownerHash: OWNER,
  runId: 'run_1',
  turn: 1,
  probeType: 'com.casimirbot.minecraft.inventory.check',
  status: 'pending',
  requestedAt: T + n,
  expiresAt: T + 60_000,
  deliveredAt: null,
  answeredAt: null,
  observationId: null,
  ...extra,
});

describe.each(storeFlavours())('room ingress repository on $name (0011_room_ingress)', (flavour) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await flavour.create();
  });
  afterAll(async () => t.dispose());

  it('ING-02: a request identity is recorded once; a second insert of it writes nothing', async () => {
    const request = {
      sourceId: SOURCE,
      requestId: 'request-identity-0001',
      ownerHash: OWNER,
      route: 'heartbeat',
      bodyHash: 'b'.repeat(64),
      producerEpochHash: 'd'.repeat(64),
      receivedAt: T,
      responseJson: '{"accepted":true}',
    };
    expect(await t.store.read.roomIngress.insertRequest(request)).toBe(true);
    expect(await t.store.read.roomIngress.insertRequest({ ...request, bodyHash: '0'.repeat(64) })).toBe(false);
    expect(await t.store.read.roomIngress.getRequest(SOURCE, request.requestId)).toEqual(request);
  });

  it('keeps one status row per source, replaced by the newest heartbeat', async () => {
    const status = {
      sourceId: SOURCE,
      ownerHash: OWNER,
      producerEpochHash: 'd'.repeat(64),
      lastHeartbeatAt: T,
      gameConnected: true,
      lastObservedAt: null,
    };
    await t.store.read.roomIngress.upsertStatus(status);
    await t.store.read.roomIngress.upsertStatus({ ...status, lastHeartbeatAt: T + 5, gameConnected: false });
    expect(await t.store.read.roomIngress.getStatus(SOURCE)).toEqual({
      ...status,
      lastHeartbeatAt: T + 5,
      gameConnected: false,
    });
  });

  it('ING-03: stores observations with their provenance and finds the newest by observation time', async () => {
    await t.store.transaction((uow) =>
      uow.roomIngress.insertObservations([observation(1, T + 3), observation(2, T + 1), observation(3, T + 2)]),
    );
    expect(await t.store.read.roomIngress.latestObservation(SOURCE, 'snapshot')).toEqual(observation(1, T + 3));
    expect(await t.store.read.roomIngress.latestObservation(SOURCE, 'probe_result')).toBeUndefined();
    expect(await t.store.read.roomIngress.getObservation(observation(2, 0).observationId)).toEqual(
      observation(2, T + 1),
    );
  });

  it('ING-02, storage bounds: the ledger forgets requests older than the window, and all but the newest `keep`', async () => {
    const source = `rsb_${'2'.padStart(32, '0')}`;
    const ingress = t.store.read.roomIngress;
    const request = (n: number, receivedAt: number) => ({
      sourceId: source,
      requestId: `ledger-request-${String(n).padStart(4, '0')}`,
      ownerHash: OWNER,
      route: 'heartbeat',
      bodyHash: 'b'.repeat(64),
      producerEpochHash: 'd'.repeat(64),
      receivedAt,
      responseJson: '{}',
    });
    // Four at one instant (a frozen clock): the request id orders them, so `keep` is still exact.
    for (const n of [1, 2, 3, 4]) await ingress.insertRequest(request(n, T));
    for (const n of [5, 6]) await ingress.insertRequest(request(n, T + n));
    await ingress.insertRequest({ ...request(1, T), sourceId: SOURCE, requestId: 'another-source-request' });
    expect(await ingress.pruneRequests(source, T - 1, 10)).toBe(0);
    expect(await ingress.pruneRequests(source, T - 1, 4)).toBe(2);
    const left = async () => {
      const ids = [];
      for (let n = 1; n <= 6; n++) if (await ingress.getRequest(source, request(n, 0).requestId)) ids.push(n);
      return ids;
    };
    expect(await left()).toEqual([3, 4, 5, 6]);
    // By age: everything received before T + 6 goes, whatever `keep` allows.
    expect(await ingress.pruneRequests(source, T + 6, 100)).toBe(3);
    expect(await left()).toEqual([6]);
    expect(await ingress.getRequest(SOURCE, 'another-source-request')).toBeDefined();
  });

  it('storage bounds: a source keeps its newest observations of a kind; sizes add up per room', async () => {
    const source = `rsb_${'3'.padStart(32, '0')}`;
    const room = `room_${'3'.padStart(24, '0')}`;
    const ingress = t.store.read.roomIngress;
    const at = (n: number, observedAt: number, kind: 'snapshot' | 'probe_result' = 'snapshot') => ({
      ...observation(100 + n, observedAt),
      sourceId: source,
      roomId: room,
      kind,
      payloadBytes: 10 * n,
    });
    await t.store.transaction((uow) =>
      uow.roomIngress.insertObservations([
        at(1, T + 1),
        at(2, T + 5),
        at(3, T + 3),
        at(4, T + 4),
        at(5, T + 2, 'probe_result'),
      ]),
    );
    expect(await ingress.roomObservationBytes(room)).toBe(150);
    expect(await ingress.roomObservationBytes(`room_${'9'.padStart(24, '0')}`)).toBe(0);
    expect((await ingress.oldestObservations(source, 10)).map((o) => o.payloadBytes)).toEqual([10, 50, 30, 40, 20]);
    expect(await ingress.pruneObservations(source, 'snapshot', 2)).toBe(2);
    // The newest two by observation time stay, the newest of all among them; the other kind is untouched.
    expect((await ingress.oldestObservations(source, 10)).map((o) => [o.kind, o.payloadBytes])).toEqual([
      ['probe_result', 50],
      ['snapshot', 40],
      ['snapshot', 20],
    ]);
    expect((await ingress.latestObservation(source, 'snapshot'))?.observationId).toBe(at(2, 0).observationId);
    expect(await ingress.pruneObservations(source, 'snapshot', 2)).toBe(0);
    expect(await ingress.deleteObservations([at(5, 0).observationId, 'obs_unknown'])).toBe(1);
    expect(await ingress.roomObservationBytes(room)).toBe(60);
  });

  it('PRB-02: probes are taken (marked delivered), answered once, and expired probes are not taken', async () => {
    const ingress = t.store.read.roomIngress;
    await ingress.insertProbe(probe(1));
    await ingress.insertProbe(probe(2, { expiresAt: T }));
    await ingress.insertProbe(probe(3));
    const taken = await ingress.takeProbes(SOURCE, T + 100, 8);
    expect(taken.map((p) => [p.probeId, p.status, p.deliveredAt])).toEqual([
      [probe(1).probeId, 'delivered', T + 100],
      [probe(3).probeId, 'delivered', T + 100],
    ]);
    // A lost poll is answered again by the next one.
    expect((await ingress.takeProbes(SOURCE, T + 200, 1)).map((p) => p.probeId)).toEqual([probe(1).probeId]);
    expect(await ingress.answerProbe(probe(1).probeId, 'completed', 'obs_x', T + 300)).toBe(true);
    expect(await ingress.answerProbe(probe(1).probeId, 'failed', null, T + 301)).toBe(false);
    expect(await ingress.getProbe(probe(1).probeId)).toMatchObject({ status: 'completed', observationId: 'obs_x' });
    expect(await ingress.expireProbe(probe(3).probeId, T + 400)).toBe(true);
    expect(await ingress.answerProbe(probe(3).probeId, 'completed', null, T + 401)).toBe(false);
    expect(await ingress.takeProbes(SOURCE, T + 500, 8)).toEqual([]);
  });
});
