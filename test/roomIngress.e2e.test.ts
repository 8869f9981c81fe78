// Issue 15 item 3: the source ingress lane over real HTTP on loopback, on SQLite and PostgreSQL
// (docs/spec/shared-live-room-requirements.md §8 ING-01..ING-03, §7 SRC-06/SRC-07, §10 PRB-02).
// Bodies are the reference connector's (test/support/ingressBodies.ts); stored rows are read back.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_CHECK_PROBE } from '../connectors/minecraft/src/wire.js';
import {
  AdmissionReceiptSchema,
  HeartbeatReceiptSchema,
  ProbePollReceiptSchema,
  ProbeResultReceiptSchema,
  SourceStatusReceiptSchema,
  WorldEventBatchReceiptSchema,
} from '../src/api/roomIngressOutputSchemas.js';
import { createAdapterRegistry } from '../src/domain/environmentAdapterRegistry.js';
import {
  MINECRAFT_READONLY_PROFILE,
  SYNTHETIC_FIXTURE_PROFILE,
  profileContractHash,
} from '../src/domain/environmentAdapterProfiles.js';
import { recordHeartbeat } from '../src/service/roomIngress/recordHeartbeat.js';
import { submitManifest } from '../src/service/roomIngress/submitManifest.js';
import { canonicalJson, sha256Hex } from '../src/domain/hashing.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { revokeSource } from '../src/service/roomSources/revokeSource.js';
import { rotateSource } from '../src/service/roomSources/rotateSource.js';
import type { Store } from '../src/store/port.js';
import { api, manualClock, startTestHelix, type TestHelix } from './support/harness.js';
import {
  type ClaimedSource,
  ingressPost,
  insertPendingProbe,
  MINECRAFT_SOURCE,
  sourceOwner,
} from './support/ingressSources.js';
import {
  batchBody,
  envelope,
  heartbeatBody,
  manifestBody,
  newEpoch,
  pollBody,
  probeResultBody,
  snapshot,
} from './support/ingressBodies.js';
import { refusal } from './support/roomDeps.js';
import { serverStoreFlavours } from './support/stores.js';

const INGRESS = '/api/room-ingress/v1/bindings';
const ENV = {
  HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_ENVIRONMENT_ADAPTER_FIXTURES: '1',
  HELIX_ROOM_INGRESS_BODY_LIMIT: String(128 * 1024),
};
const WORLD = 'minecraft:overworld';
const MINECRAFT = MINECRAFT_SOURCE;
const FIXTURE = { domain_adapter: 'synthetic_game.fixture.v1', world_id: 'synthetic-game:a', source_label: 'Fixture' };
const FIXTURE_PROBE = SYNTHETIC_FIXTURE_PROFILE.allowed_probe_types[0] ?? '';

type Source = ClaimedSource;

describe.each(serverStoreFlavours())('the source ingress lane on $name', (flavour) => {
  const clock = manualClock();
  let h: TestHelix;
  let store: Store;
  let rooms: RoomDeps;
  let alice = '';
  let token = '';
  let newSource: (body?: object, ttlMs?: number) => Promise<Source>;

  const post = (source: Pick<Source, 'id' | 'bearer'>, route: string, body: unknown) =>
    ingressPost(h, source, route, body);
  /** A source with an admitted manifest for a fresh producer epoch. */
  const admitted = async (body: object = MINECRAFT) => {
    const source = await newSource(body);
    const epoch = newEpoch();
    const manifest = await post(source, 'manifest', manifestBody(epoch, clock.now(), WORLD));
    expect(manifest.status, manifest.text).toBe(200);
    return { source, epoch, manifest: manifest.body };
  };
  const insertProbe = (source: Source, probeType = INVENTORY_CHECK_PROBE, ttlMs = 60_000) =>
    insertPendingProbe(store, source.id, clock.now(), { probeType, ttlMs });

  beforeAll(async () => {
    h = await startTestHelix(flavour, { env: ENV, clock });
    store = h.testStore.store;
    const owner = await sourceOwner(h, clock.now);
    ({ rooms, token, newSource } = owner);
    alice = owner.accountId;
  });
  afterAll(async () => h?.close());

  it('ING-01, ING-02, ING-03, PRB-02: manifest, heartbeat, batch, pending, result, with exact provenance in the rows', async () => {
    const source = await newSource();
    const epoch = newEpoch();
    const manifestRequest = manifestBody(epoch, clock.now(), WORLD);
    const manifest = await post(source, 'manifest', manifestRequest);
    expect(manifest.status, manifest.text).toBe(200);
    expect(manifest.headers.get('idempotency-replayed')).toBe('false');
    expect(manifest.body).toMatchObject({
      schema: 'helix.environment_adapter_admission.v1',
      binding_id: source.id,
      profile_id: 'game.minecraft.readonly.v1',
      profile_version: 1,
      manifest_id: manifestRequest.request_id,
    });
    expect(manifest.text).not.toContain(epoch);
    AdmissionReceiptSchema.parse(manifest.body);
    const admission = await store.read.roomSources.getCurrentAdmission(source.id);
    expect(admission).toMatchObject({
      admissionId: manifest.body.admission_id,
      manifestId: manifestRequest.request_id,
      manifestHash: manifest.body.manifest_hash,
      producerEpochHash: sha256Hex(epoch),
      invalidatedAt: null,
    });

    const observedAt = clock.now();
    const heartbeat = await post(source, 'heartbeat', heartbeatBody(epoch, clock.now(), observedAt));
    expect(heartbeat.status, heartbeat.text).toBe(200);
    HeartbeatReceiptSchema.parse(heartbeat.body);
    expect(await store.read.roomIngress.getStatus(source.id)).toMatchObject({
      gameConnected: true,
      lastHeartbeatAt: clock.now(),
      lastObservedAt: observedAt,
      producerEpochHash: sha256Hex(epoch),
    });

    const batch = batchBody(epoch, observedAt, WORLD, [snapshot(), snapshot('helix_scout', [])]);
    const stored = await post(source, 'world-events/batch', batch);
    expect(stored.status, stored.text).toBe(200);
    expect(WorldEventBatchReceiptSchema.parse(stored.body)).toMatchObject({ accepted: 2 });
    const first = await store.read.roomIngress.getObservation(stored.body.observation_ids[0]);
    expect(first).toEqual({
      observationId: stored.body.observation_ids[0],
      sourceId: source.id,
      roomId: source.roomId,
      ownerHash: admission?.ownerHash,
      worldId: WORLD,
      admissionId: admission?.admissionId,
      profileId: 'game.minecraft.readonly.v1',
      profileVersion: 1,
      profileHash: admission?.profileHash,
      manifestId: manifestRequest.request_id,
      manifestHash: admission?.manifestHash,
      producerEpochHash: sha256Hex(epoch),
      requestId: batch.request_id,
      eventId: batch.events[0]?.event_id,
      kind: 'snapshot',
      observedAt,
      receivedAt: clock.now(),
      payloadJson: canonicalJson(snapshot()),
      payloadSha256: sha256Hex(canonicalJson(snapshot())),
      payloadBytes: Buffer.byteLength(canonicalJson(snapshot())),
    });

    const probeId = await insertProbe(source);
    const poll = await post(source, 'probes/pending', pollBody(epoch, clock.now()));
    expect(poll.status, poll.text).toBe(200);
    expect(ProbePollReceiptSchema.parse(poll.body).probes).toEqual([
      { probe_id: probeId, probe_type: INVENTORY_CHECK_PROBE, requested_at: new Date(clock.now()).toISOString() },
    ]);
    expect((await store.read.roomIngress.getProbe(probeId))?.status).toBe('delivered');

    const answer = probeResultBody(epoch, clock.now(), poll.body.probes[0]);
    const result = await post(source, 'probes/result', answer);
    expect(result.status, result.text).toBe(200);
    ProbeResultReceiptSchema.parse(result.body);
    const probe = await store.read.roomIngress.getProbe(probeId);
    expect(probe).toMatchObject({ status: 'completed', observationId: result.body.observation_id });
    const resultRow = await store.read.roomIngress.getObservation(result.body.observation_id);
    expect(resultRow).toMatchObject({
      kind: 'probe_result',
      eventId: probeId,
      requestId: answer.request_id,
      admissionId: admission?.admissionId,
      manifestId: manifestRequest.request_id,
    });
    expect(JSON.parse(resultRow?.payloadJson ?? '')).toEqual({
      probe_type: INVENTORY_CHECK_PROBE,
      status: 'completed',
      result: answer.result,
    });

    const status = await api(h.url, 'GET', `${INGRESS}/${source.id}/status`, { token: source.bearer });
    expect(status.status).toBe(200);
    expect(SourceStatusReceiptSchema.parse(status.body)).toMatchObject({
      schema: 'helix.environment_source_status.v1',
      binding_id: source.id,
      source_status: 'active',
      admission: { admission_id: admission?.admissionId, contract_current: true },
      connection: { game_connected: true, last_observed_at: new Date(observedAt).toISOString() },
    });
    expect(status.text).not.toContain(source.bearer);
    expect(status.text).not.toContain(sha256Hex(epoch));
  });

  it('ING-02: a retry of the same body gets the stored answer and writes nothing; another body under the id is refused', async () => {
    const { source, epoch } = await admitted();
    const batch = batchBody(epoch, clock.now(), WORLD, [snapshot()]);
    const first = await post(source, 'world-events/batch', batch);
    const retry = await post(source, 'world-events/batch', batch);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    const latest = await store.read.roomIngress.latestObservation(source.id, 'snapshot');
    expect(latest?.observationId).toBe(first.body.observation_ids[0]);
    const changed = { ...batch, events: [{ ...batch.events[0], snapshot: snapshot('other_player') }] };
    const replayed = await post(source, 'world-events/batch', changed);
    expect(replayed.status).toBe(409);
    expect(replayed.body).toMatchObject({ code: 'ingress_request_replayed' });
    expect(replayed.headers.get('idempotency-replayed')).toBe('false');
    // The same request_id on another route is a replay too.
    const elsewhere = await post(source, 'heartbeat', {
      ...heartbeatBody(epoch, clock.now(), null),
      request_id: batch.request_id,
    });
    expect(elsewhere.body.code).toBe('ingress_request_replayed');
    expect((await store.read.roomIngress.latestObservation(source.id, 'snapshot'))?.payloadJson).toBe(
      canonicalJson(snapshot()),
    );
  });

  it('ING-02: traffic needs an admission for its producer epoch; a new manifest supersedes the old epoch', async () => {
    const source = await newSource();
    const epoch = newEpoch();
    const early = await post(source, 'heartbeat', heartbeatBody(epoch, clock.now(), null));
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({
      schema: 'helix.agent_api.error.v1',
      code: 'environment_adapter_admission_required',
    });
    expect((await post(source, 'manifest', manifestBody(epoch, clock.now(), WORLD))).status).toBe(200);
    const first = await store.read.roomSources.getCurrentAdmission(source.id);

    const restarted = newEpoch();
    const stranger = await post(source, 'world-events/batch', batchBody(restarted, clock.now(), WORLD, [snapshot()]));
    expect(stranger.body.code).toBe('environment_adapter_admission_required');
    expect((await post(source, 'manifest', manifestBody(restarted, clock.now(), WORLD))).status).toBe(200);
    const second = await store.read.roomSources.getCurrentAdmission(source.id);
    expect(second?.admissionId).not.toBe(first?.admissionId);
    expect(second?.producerEpochHash).toBe(sha256Hex(restarted));
    for (const [route, body] of [
      ['heartbeat', heartbeatBody(epoch, clock.now(), null)],
      ['world-events/batch', batchBody(epoch, clock.now(), WORLD, [snapshot()])],
      ['probes/pending', pollBody(epoch, clock.now())],
    ] as const) {
      const old = await post(source, route, body);
      expect([route, old.status, old.body.code]).toEqual([route, 409, 'environment_adapter_admission_required']);
    }
    expect((await post(source, 'heartbeat', heartbeatBody(restarted, clock.now(), null))).status).toBe(200);
    expect(await store.read.roomIngress.latestObservation(source.id, 'snapshot')).toBeUndefined();
  });

  it('SRC-07: only this binding’s source bearer: an hlx_ key, no bearer, a query token, a cookie, room A’s bearer on room B', async () => {
    const a = await newSource();
    const b = await newSource();
    const body = manifestBody(newEpoch(), clock.now(), WORLD);
    const key = await api(h.url, 'POST', `${INGRESS}/${a.id}/manifest`, { token, body });
    expect([key.status, key.body.code]).toEqual([401, 'invalid_token']);
    expect(key.headers.get('www-authenticate')).toContain('invalid_token');
    const none = await api(h.url, 'POST', `${INGRESS}/${a.id}/manifest`, { body });
    expect([none.status, none.body.code]).toEqual([401, 'unauthorized']);
    const cross = await post({ id: b.id, bearer: a.bearer }, 'manifest', body);
    expect([cross.status, cross.body.code]).toEqual([401, 'invalid_token']);
    const query = await api(h.url, 'POST', `${INGRESS}/${a.id}/manifest?access_token=x`, { token: a.bearer, body });
    expect(query.body.code).toBe('multiple_credentials');
    const cookie = await api(h.url, 'GET', `${INGRESS}/${a.id}/status`, {
      headers: { cookie: `helix_session=${a.bearer}` },
    });
    expect(cookie.status).toBe(401);
    // The bearer is checked before the body: a stranger learns nothing about the body rules.
    const strangerBody = await post({ id: a.id, bearer: b.bearer }, 'manifest', { nonsense: true });
    expect(strangerBody.body.code).toBe('invalid_token');
    expect(await store.read.roomSources.getCurrentAdmission(a.id)).toBeUndefined();
    expect(await store.read.roomSources.getCurrentAdmission(b.id)).toBeUndefined();
  });

  // Issue 27, item 15: the bearer is checked before the content type, the size and the JSON, so a
  // caller without this binding's bearer learns nothing of the lane's body rules (SRC-07).
  it('SRC-07: without a valid bearer, a bad content type, an oversize body or malformed JSON is still 401', async () => {
    const a = await newSource();
    const b = await newSource();
    const url = `${INGRESS}/${a.id}/manifest`;
    const oversize = JSON.stringify({ padding: 'x'.repeat(200 * 1024) });
    const cases = [
      { label: 'bad content type', rawBody: 'hello', headers: { 'content-type': 'text/plain' } },
      { label: 'oversize body', rawBody: oversize, headers: {} },
      { label: 'malformed JSON', rawBody: '{"schema":', headers: {} },
    ];
    for (const c of cases) {
      const none = await api(h.url, 'POST', url, { rawBody: c.rawBody, headers: c.headers });
      expect([c.label, none.status, none.body?.code]).toEqual([c.label, 401, 'unauthorized']);
      expect(none.headers.get('idempotency-replayed')).toBe('false');
      const stranger = await api(h.url, 'POST', url, { token: b.bearer, rawBody: c.rawBody, headers: c.headers });
      expect([c.label, stranger.status, stranger.body?.code]).toEqual([c.label, 401, 'invalid_token']);
    }
    // With its own bearer the same bodies get the body rules' answers.
    const own = await api(h.url, 'POST', url, {
      token: a.bearer,
      rawBody: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(own.status).toBe(415);
    expect((await api(h.url, 'POST', url, { token: a.bearer, rawBody: oversize })).status).toBe(413);
    expect((await api(h.url, 'POST', url, { token: a.bearer, rawBody: '{"schema":' })).status).toBe(400);
  });

  it('ING-04 (fixture-adapter test): a second adapter’s manifest on a binding is environment_adapter_identity_mismatch, both ways', async () => {
    const minecraft = await newSource();
    const fixture = await newSource(FIXTURE);
    const epoch = newEpoch();
    const fixtureManifest = {
      ...manifestBody(epoch, clock.now(), FIXTURE.world_id),
      domain_adapter: FIXTURE.domain_adapter,
      protocol_version: 'synthetic.1',
      mechanics_collections: SYNTHETIC_FIXTURE_PROFILE.mechanics_collections,
      modalities: ['position'],
      probe_types: [FIXTURE_PROBE],
      producer: { name: 'fixture-producer', version: '1' },
    };
    const onMinecraft = await post(minecraft, 'manifest', { ...fixtureManifest, world_id: WORLD });
    expect([onMinecraft.status, onMinecraft.body.code]).toEqual([403, 'environment_adapter_identity_mismatch']);
    const onFixture = await post(fixture, 'manifest', manifestBody(epoch, clock.now(), FIXTURE.world_id));
    expect([onFixture.status, onFixture.body.code]).toEqual([403, 'environment_adapter_identity_mismatch']);
    const otherWorld = await post(minecraft, 'manifest', manifestBody(epoch, clock.now(), 'minecraft:nether'));
    expect(otherWorld.body.code).toBe('environment_adapter_identity_mismatch');
    expect(await store.read.roomSources.getCurrentAdmission(minecraft.id)).toBeUndefined();

    // The fixture source's own manifest is admitted, and its observations follow its own profile.
    const admittedFixture = await post(fixture, 'manifest', fixtureManifest);
    expect(admittedFixture.status, admittedFixture.text).toBe(200);
    expect(admittedFixture.body.profile_contract_hash).toBe(profileContractHash(SYNTHETIC_FIXTURE_PROFILE));
    const minecraftSnapshot = batchBody(epoch, clock.now(), FIXTURE.world_id, [snapshot()]);
    const refused = await post(fixture, 'world-events/batch', minecraftSnapshot);
    expect([refused.status, refused.body.code]).toEqual([422, 'environment_adapter_observation_schema_invalid']);
    const own = {
      ...minecraftSnapshot,
      request_id: randomUUID(),
      events: [{ ...minecraftSnapshot.events[0], snapshot: { position: { x: 1, y: 2, z: 3 } } }],
    };
    expect((await post(fixture, 'world-events/batch', own)).status).toBe(200);
    // Its profile admits at most 4 events per batch, fewer than the lane's 16.
    const five = {
      ...own,
      request_id: randomUUID(),
      events: [1, 2, 3, 4, 5].map((n) => ({ ...own.events[0], event_id: `fixture-event-${n}-000000000` })),
    };
    const tooMany = await post(fixture, 'world-events/batch', five);
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 'invalid_request']);
    // A Minecraft probe never reaches the fixture source: it is not on its profile's allowlist.
    const foreignProbe = await insertProbe(fixture, INVENTORY_CHECK_PROBE);
    const poll = await post(fixture, 'probes/pending', pollBody(epoch, clock.now()));
    expect(poll.body.probes).toEqual([]);
    expect((await store.read.roomIngress.getProbe(foreignProbe))?.status).toBe('expired');
  });

  it('ING-03: bounds and schemas: 17 events, an oversize body, an unknown field, a bad snapshot, a future time, another world', async () => {
    const { source, epoch } = await admitted();
    const seventeen = batchBody(
      epoch,
      clock.now(),
      WORLD,
      Array.from({ length: 17 }, () => snapshot()),
    );
    const over = await post(source, 'world-events/batch', seventeen);
    expect([over.status, over.body.code]).toEqual([400, 'invalid_request']);
    expect(over.body.issues.map((i: { path: string }) => i.path)).toEqual(['events']);
    const huge = await post(source, 'world-events/batch', {
      ...batchBody(epoch, clock.now(), WORLD, [snapshot()]),
      padding: 'x'.repeat(130 * 1024),
    });
    expect([huge.status, huge.body.code]).toEqual([413, 'payload_too_large']);
    const secret = 'do-not-echo-this-value';
    const unknown = await post(source, 'heartbeat', { ...heartbeatBody(epoch, clock.now(), null), [secret]: secret });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'invalid_request']);
    expect(unknown.body.issues).toEqual([{ path: '(root)', message: 'unknown field' }]);
    expect(unknown.text).not.toContain(secret);

    const bad = batchBody(epoch, clock.now(), WORLD, [snapshot()]);
    const badSnapshot = { ...bad.events[0]?.snapshot, vitals: { health: -1, food: 20, saturation: null } };
    const invalid = await post(source, 'world-events/batch', {
      ...bad,
      events: [{ ...bad.events[0], snapshot: badSnapshot }],
    });
    expect([invalid.status, invalid.body.code]).toEqual([422, 'environment_adapter_observation_schema_invalid']);
    expect(invalid.body.issues).toEqual([
      { path: 'events.0.snapshot.vitals.health', message: 'does not satisfy the adapter profile' },
    ]);
    const future = batchBody(epoch, clock.now() + 60_000, WORLD, [snapshot()]);
    const ahead = await post(source, 'world-events/batch', future);
    expect([ahead.status, ahead.body.issues]).toEqual([
      422,
      [{ path: 'events.0.observed_at', message: 'is in the future' }],
    ]);
    const nether = await post(
      source,
      'world-events/batch',
      batchBody(epoch, clock.now(), 'minecraft:nether', [snapshot()]),
    );
    expect([nether.status, nether.body.code]).toEqual([403, 'environment_adapter_identity_mismatch']);
    expect(await store.read.roomIngress.latestObservation(source.id, 'snapshot')).toBeUndefined();
  });

  it('ING-03, SLR-08: a credential-shaped value inside an observation is redacted in the stored row', async () => {
    const { source, epoch } = await admitted();
    const key = `hlx_${'A'.repeat(40)}`;
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln';
    const items = [{ slot: 1, name: jwt, count: 1 }];
    const batch = batchBody(epoch, clock.now(), WORLD, [snapshot(key, items)]);
    const stored = await post(source, 'world-events/batch', batch);
    expect(stored.status, stored.text).toBe(200);
    const row = await store.read.roomIngress.getObservation(stored.body.observation_ids[0]);
    expect(row?.payloadJson).not.toContain(key);
    expect(row?.payloadJson).not.toContain(jwt);
    const payload = JSON.parse(row?.payloadJson ?? '{}');
    expect([payload.player.username, payload.inventory.items[0].name]).toEqual(['[redacted]', '[redacted]']);
  });

  it('PRB-02: an unknown or another source’s probe is not found; an answered or expired one is closed', async () => {
    const { source, epoch } = await admitted();
    const other = await newSource();
    const foreign = await insertProbe(other);
    const answer = (probeId: string) =>
      probeResultBody(epoch, clock.now(), { probe_id: probeId, probe_type: INVENTORY_CHECK_PROBE });
    expect((await post(source, 'probes/result', answer(foreign))).body.code).toBe('ingress_probe_not_found');
    expect((await post(source, 'probes/result', answer(`prb_${'0'.repeat(32)}`))).status).toBe(404);
    const mine = await insertProbe(source);
    expect((await post(source, 'probes/result', answer(mine))).status).toBe(200);
    const again = await post(source, 'probes/result', answer(mine));
    expect([again.status, again.body.code]).toEqual([409, 'ingress_probe_closed']);
    const wrongType = await insertProbe(source);
    const mistyped = probeResultBody(epoch, clock.now(), { probe_id: wrongType, probe_type: 'other.probe' }, false);
    expect((await post(source, 'probes/result', mistyped)).body.code).toBe(
      'environment_adapter_observation_schema_invalid',
    );
    const short = await insertProbe(source, INVENTORY_CHECK_PROBE, 1_000);
    clock.advance(1_000);
    expect((await post(source, 'probes/result', answer(short))).body.code).toBe('ingress_probe_closed');
    expect((await store.read.roomIngress.getProbe(foreign))?.status).toBe('pending');
  });

  it('SRC-06: rotation, revocation and expiry are enforced at the next ingress call', async () => {
    const rotated = await admitted();
    const rotation = await rotateSource(rooms, alice, rotated.source.id);
    const stale = await post(rotated.source, 'heartbeat', heartbeatBody(rotated.epoch, clock.now(), null));
    expect([stale.status, stale.body.code]).toEqual([401, 'invalid_token']);
    const next = await claimDelivery(rooms, alice, rotation.credential_delivery.claim_handle);
    const fresh = { id: rotated.source.id, bearer: next.token_value };
    // The new bearer works, but the old admission went with the old bearer: a manifest first.
    const unadmitted = await post(fresh, 'heartbeat', heartbeatBody(rotated.epoch, clock.now(), null));
    expect(unadmitted.body.code).toBe('environment_adapter_admission_required');

    const revoked = await admitted();
    await revokeSource(rooms, alice, revoked.source.id);
    const afterRevoke = await post(
      revoked.source,
      'world-events/batch',
      batchBody(revoked.epoch, clock.now(), WORLD, [snapshot()]),
    );
    expect([afterRevoke.status, afterRevoke.body.code]).toEqual([401, 'invalid_token']);

    const expiring = await newSource(MINECRAFT, 60_000);
    const epoch = newEpoch();
    expect((await post(expiring, 'manifest', manifestBody(epoch, clock.now(), WORLD))).status).toBe(200);
    clock.advance(60_000);
    const expired = await post(expiring, 'heartbeat', heartbeatBody(epoch, clock.now(), null));
    expect([expired.status, expired.body.code]).toEqual([401, 'invalid_token']);
    expect((await store.read.roomSources.getSource(expiring.id))?.status).toBe('expired');
    expect(await store.read.roomSources.getCurrentAdmission(expiring.id)).toBeUndefined();
    expect((await api(h.url, 'GET', `${INGRESS}/${expiring.id}/status`, { token: expiring.bearer })).status).toBe(401);
  });

  it('ING-02: a change to the code-owned profile after admission is environment_adapter_contract_changed', async () => {
    const { source, epoch } = await admitted();
    const row = await store.read.roomSources.getSource(source.id);
    // The same deployment after an upgrade that changed the Minecraft profile (here: one ceiling).
    const changed = {
      ...rooms,
      adapters: createAdapterRegistry({
        fixturesEnabled: false,
        profiles: [
          { ...MINECRAFT_READONLY_PROFILE, ceilings: { ...MINECRAFT_READONLY_PROFILE.ceilings, max_batch_events: 8 } },
        ],
      }),
    };
    if (row === undefined) throw new Error('source row missing');
    expect(await refusal(recordHeartbeat(changed, row, heartbeatBody(epoch, clock.now(), null)))).toMatchObject({
      code: 'environment_adapter_contract_changed',
      status: 409,
    });
    // Nor can a new manifest admit the source under the changed contract: it was made under the old one.
    expect(await refusal(submitManifest(changed, row, manifestBody(newEpoch(), clock.now(), WORLD)))).toMatchObject({
      code: 'environment_adapter_contract_changed',
    });
    expect((await recordHeartbeat(rooms, row, heartbeatBody(epoch, clock.now(), null))).status).toBe(200);
  });

  it('ING-01: the lane answers 405 for another method and 404 for an unknown route, in the error vocabulary', async () => {
    const source = await newSource();
    const get = await api(h.url, 'GET', `${INGRESS}/${source.id}/manifest`, { token: source.bearer });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const unknown = await post(source, 'actions/pending', { ...envelope(newEpoch(), clock.now()) });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
    const overlong = await post({ id: 'x'.repeat(300), bearer: source.bearer }, 'heartbeat', {});
    expect([overlong.status, overlong.body.code]).toEqual([404, 'not_found']);
  });
});
