// Issue 27 item 4: what a room's sources keep is bounded (docs/rooms.md "Storage bounds"). A source
// keeps its newest observations per kind; a room's observations fit its storage quota, past which
// a source with nothing of its own to give up is refused 507 room_storage_quota_exceeded and stores
// nothing; the ingress request ledger (ING-02's request identity) replays within its window and
// forgets what is older, or beyond its newest entries. Over real HTTP, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/domain/hashing.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { fakeConnector } from './support/fakeConnector.js';
import { api, idemKey, manualClock, startTestHelix, type TestHelix } from './support/harness.js';
import { batchBody, heartbeatBody, manifestBody, newEpoch, snapshot } from './support/ingressBodies.js';
import { type ClaimedSource, ingressPost, MINECRAFT_SOURCE, sourceOwner } from './support/ingressSources.js';
import { serverStoreFlavours } from './support/stores.js';

const WORLD = 'minecraft:overworld';
const PER_SOURCE = 8;
/** About one snapshot's stored size: the quota fits five and a half of them. */
const SNAPSHOT_BYTES = Buffer.byteLength(canonicalJson(snapshot()));
const QUOTA = Math.round(5.5 * SNAPSHOT_BYTES);
const WINDOW_MS = 60_000;
const LEDGER = 100;
const ENV = {
  HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_ROOM_INGRESS_IP_RATE_LIMIT: '0',
  HELIX_ROOM_INGRESS_BINDING_RATE_LIMIT: '0',
  HELIX_ROOM_OBSERVATIONS_PER_SOURCE: String(PER_SOURCE),
  HELIX_ROOM_STORAGE_QUOTA_BYTES: String(QUOTA),
  HELIX_ROOM_INGRESS_REPLAY_WINDOW_MS: String(WINDOW_MS),
  HELIX_ROOM_INGRESS_LEDGER_PER_SOURCE: String(LEDGER),
};

describe.each(serverStoreFlavours())('room storage bounds on $name (issue 27 item 4)', (flavour) => {
  const clock = manualClock();
  let h: TestHelix;
  /** The same bounds but the default room quota, so only the per-source count prunes. */
  let roomy: TestHelix;
  beforeAll(async () => {
    h = await startTestHelix(flavour, { env: ENV, clock });
    const { HELIX_ROOM_STORAGE_QUOTA_BYTES: _quota, ...countOnly } = ENV;
    roomy = await startTestHelix(flavour, { env: countOnly, clock });
  });
  afterAll(async () => {
    await h?.close();
    await roomy?.close();
  });

  const ingress = () => h.testStore.store.read.roomIngress;
  /** A new room with one live source (manifest, heartbeat and one snapshot sent), and a way to add more sources to it. */
  const room = async () => {
    const owner = await sourceOwner(h, clock.now);
    const first = await owner.newSource();
    const another = async (): Promise<ClaimedSource> => {
      const made = await api(h.url, 'POST', `/api/v1/rooms/${first.roomId}/sources`, {
        token: owner.token,
        idempotencyKey: idemKey('source'),
        body: { ...MINECRAFT_SOURCE, ttl_ms: 3_600_000 },
      });
      expect(made.status, made.text).toBe(201);
      const claimed = await claimDelivery(owner.rooms, owner.accountId, made.body.credential_delivery.claim_handle);
      return { roomId: first.roomId, id: made.body.source.source_id, bearer: claimed.token_value, actionToken: null };
    };
    return { first, another };
  };
  /** A live source that sends one snapshot a second (the clock moves on, so each is the newest). */
  const live = async (source: ClaimedSource) => {
    const connector = await fakeConnector(h, source, clock.now);
    const send = (items = 3) => {
      clock.advance(1_000);
      return ingressPost(
        h,
        source,
        'world-events/batch',
        batchBody(connector.epoch, clock.now(), WORLD, [
          snapshot('helix_scout', [{ slot: 36, name: 'dirt', count: items }]),
        ]),
      );
    };
    return { connector, send };
  };
  const stored = async (sourceId: string) => (await ingress().oldestObservations(sourceId, 1_000)).length;

  it('a source keeps only its newest HELIX_ROOM_OBSERVATIONS_PER_SOURCE snapshots; the newest is the one read', async () => {
    const owner = await sourceOwner(roomy, clock.now);
    const source = await owner.newSource();
    const connector = await fakeConnector(roomy, source, clock.now);
    for (let i = 1; i <= PER_SOURCE + 4; i++) {
      clock.advance(1_000);
      const items = [{ slot: 36, name: 'dirt', count: i }];
      const body = batchBody(connector.epoch, clock.now(), WORLD, [snapshot('helix_scout', items)]);
      expect((await ingressPost(roomy, source, 'world-events/batch', body)).status).toBe(200);
    }
    const read = roomy.testStore.store.read.roomIngress;
    expect((await read.oldestObservations(source.id, 1_000)).length).toBe(PER_SOURCE);
    const newest = await read.latestObservation(source.id, 'snapshot');
    expect(JSON.parse(newest?.payloadJson ?? '{}').inventory.items[0].count).toBe(PER_SOURCE + 4);
  });

  /** A source whose producer is admitted (manifest and heartbeat) but has sent no observation yet. */
  const admitted = async (source: ClaimedSource) => {
    const epoch = newEpoch();
    expect((await ingressPost(h, source, 'manifest', manifestBody(epoch, clock.now(), WORLD))).status).toBe(200);
    expect((await ingressPost(h, source, 'heartbeat', heartbeatBody(epoch, clock.now(), null))).status).toBe(200);
    return epoch;
  };

  it('past the room quota a source with nothing of its own to give up is refused 507 room_storage_quota_exceeded, stores nothing and records nothing', async () => {
    const { first, another } = await room();
    const a = await live(first);
    // a fills the room: from its sixth snapshot on it gives up its own oldest, so it keeps writing.
    for (let i = 0; i < PER_SOURCE; i++) expect((await a.send()).status).toBe(200);
    expect(await ingress().roomObservationBytes(first.roomId)).toBeLessThanOrEqual(QUOTA);
    expect(await stored(first.id)).toBeLessThan(PER_SOURCE);

    const second = await another();
    const body = batchBody(await admitted(second), clock.now(), WORLD, [snapshot()]);
    for (const attempt of [1, 2]) {
      // Nothing of the refused request is recorded, so its retry is refused again, not replayed.
      const res = await ingressPost(h, second, 'world-events/batch', body);
      expect(res.status, `attempt ${attempt}: ${res.text}`).toBe(507);
      expect(res.body).toMatchObject({ code: 'room_storage_quota_exceeded', status: 507, quota_bytes: QUOTA });
      expect(res.headers.get('idempotency-replayed')).toBe('false');
    }
    expect(await ingress().getRequest(second.id, body.request_id)).toBeUndefined();
    expect(await stored(second.id)).toBe(0);
    expect(await ingress().roomObservationBytes(first.roomId)).toBeLessThanOrEqual(QUOTA);
    // The source that holds the space still writes, within the quota.
    expect((await a.send()).status).toBe(200);
    expect(await ingress().roomObservationBytes(first.roomId)).toBeLessThanOrEqual(QUOTA);
  });

  it('one batch bigger than the whole quota is refused even for a source that holds nothing else', async () => {
    const { first } = await room();
    const epoch = await admitted(first);
    const many = Array.from({ length: 6 }, () => snapshot());
    const res = await ingressPost(h, first, 'world-events/batch', batchBody(epoch, clock.now(), WORLD, many));
    expect(res.status, res.text).toBe(507);
    expect(await stored(first.id)).toBe(0);
  });

  it('ING-02: a retry within the replay window is answered again; past the window its id is forgotten and judged afresh', async () => {
    const { first } = await room();
    const { connector } = await live(first);
    const beat = heartbeatBody(connector.epoch, clock.now(), null);
    expect((await ingressPost(h, first, 'heartbeat', beat)).status).toBe(200);
    const again = await ingressPost(h, first, 'heartbeat', beat);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    const other = { ...beat, sent_at: new Date(clock.now() + 1).toISOString() };
    expect((await ingressPost(h, first, 'heartbeat', other)).body.code).toBe('ingress_request_replayed');

    clock.advance(WINDOW_MS + 1_000);
    // The next request prunes the ledger; the old id then names a new request.
    const later = { ...other, sent_at: new Date(clock.now()).toISOString() };
    const fresh = await ingressPost(h, first, 'heartbeat', later);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.headers.get('idempotency-replayed')).toBe('false');
  });

  it('the ledger keeps at most HELIX_ROOM_INGRESS_LEDGER_PER_SOURCE requests of a source; the newest still replay', async () => {
    const { first } = await room();
    const { connector } = await live(first);
    const sent = [];
    for (let i = 0; i < LEDGER + 10; i++) {
      clock.advance(10);
      const body = heartbeatBody(connector.epoch, clock.now(), null);
      expect((await ingressPost(h, first, 'heartbeat', body)).status).toBe(200);
      sent.push(body);
    }
    const kept = [];
    for (const body of sent) if (await ingress().getRequest(first.id, body.request_id)) kept.push(body);
    expect(kept.length).toBeLessThanOrEqual(LEDGER + 1);
    expect(kept.length).toBeGreaterThanOrEqual(LEDGER);
    expect(kept.at(-1)).toBe(sent.at(-1));
    const replay = await ingressPost(h, first, 'heartbeat', sent.at(-1));
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(await ingress().getRequest(first.id, sent[0]?.request_id ?? '')).toBeUndefined();
  });
});
