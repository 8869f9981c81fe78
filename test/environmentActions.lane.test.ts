// Issue 16 item 1: the action credential and the action lane's authentication, over real HTTP on
// loopback, on SQLite and PostgreSQL (docs/spec/shared-live-room-requirements.md M-02, SRC-07,
// §23.3; docs/embodiment.md "The action credential"). Bodies follow connectors/minecraft/src/actionWire.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_CREDENTIAL_PATTERN } from '../src/domain/roomSources.js';
import { sha256Hex } from '../src/domain/hashing.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { revokeSource } from '../src/service/roomSources/revokeSource.js';
import { rotateSource } from '../src/service/roomSources/rotateSource.js';
import type { Store } from '../src/store/port.js';
import { api, manualClock, startTestHelix, type TestHelix } from './support/harness.js';
import { envelope, heartbeatBody, manifestBody, newEpoch } from './support/ingressBodies.js';
import { actionPost, type ClaimedSource, ingressPost, sourceOwner } from './support/ingressSources.js';
import { serverStoreFlavours } from './support/stores.js';

const ENV = {
  HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_ENVIRONMENT_ADAPTER_FIXTURES: '1',
};
const WORLD = 'minecraft:overworld';
const FIXTURE = { domain_adapter: 'synthetic_game.fixture.v1', world_id: 'synthetic-game:a', source_label: 'Fixture' };

const pollBody = (epoch: string, at: number) => ({
  schema: 'helix.environment_action_poll.v1',
  ...envelope(epoch, at),
  max_actions: 4,
});

describe.each(serverStoreFlavours())('the action credential and the action lane on $name', (flavour) => {
  const clock = manualClock();
  let h: TestHelix;
  let store: Store;
  let rooms: RoomDeps;
  let alice = '';
  let newSource: (body?: object, ttlMs?: number) => Promise<ClaimedSource>;

  /** A Minecraft source whose connector sent its manifest under a fresh epoch. */
  const admitted = async () => {
    const source = await newSource();
    const epoch = newEpoch();
    const manifest = await ingressPost(h, source, 'manifest', manifestBody(epoch, clock.now(), WORLD));
    expect(manifest.status, manifest.text).toBe(200);
    return { source, epoch, action: source.actionToken ?? '' };
  };
  const poll = (bindingId: string, credential: string, epoch: string) =>
    actionPost(h, bindingId, credential, 'actions/pending', pollBody(epoch, clock.now()));

  beforeAll(async () => {
    h = await startTestHelix(flavour, { env: ENV, clock });
    store = h.testStore.store;
    const owner = await sourceOwner(h, clock.now);
    ({ rooms, newSource } = owner);
    alice = owner.accountId;
  });
  afterAll(async () => h?.close());

  it('M-02: the claim answers a separate action credential once; only its SHA-256 is stored', async () => {
    const { source, epoch, action } = await admitted();
    expect(action).toMatch(ACTION_CREDENTIAL_PATTERN);
    expect(action).not.toBe(source.bearer);
    const row = await store.read.roomSources.getSource(source.id);
    expect(row?.actionCredentialHash).toBe(sha256Hex(action));
    expect(row?.credentialHash).toBe(sha256Hex(source.bearer));
    const answered = await poll(source.id, action, epoch);
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toEqual({ controls: [], actions: [] });
    expect(answered.headers.get('idempotency-replayed')).toBe('false');
  });

  it('SRC-07, M-02: each credential is refused on the other lane', async () => {
    const { source, epoch, action } = await admitted();
    const bearerOnActions = await poll(source.id, source.bearer, epoch);
    expect(bearerOnActions.status).toBe(401);
    expect(bearerOnActions.body.code).toBe('invalid_token');
    const actionOnIngress = await ingressPost(
      h,
      { id: source.id, bearer: action },
      'heartbeat',
      heartbeatBody(epoch, clock.now(), null),
    );
    expect(actionOnIngress.status).toBe(401);
    expect(actionOnIngress.body.code).toBe('invalid_token');
    // Neither refusal wrote anything: the ingress request ledger holds only the manifest.
    expect((await poll(source.id, action, epoch)).status).toBe(200);
  });

  it('M-02: a binding’s action credential is refused on another binding, and none at all is unauthorized', async () => {
    const a = await admitted();
    const b = await admitted();
    const cross = await poll(b.source.id, a.action, b.epoch);
    expect(cross.status).toBe(401);
    expect(cross.body.code).toBe('invalid_token');
    const none = await actionPost(h, a.source.id, '', 'actions/pending', pollBody(a.epoch, clock.now()));
    expect(none.status).toBe(401);
  });

  // Issue 27, item 15: the action credential is checked before the content type, size and JSON.
  it('SRC-07, M-02: without a valid action credential, a bad content type or malformed JSON is still 401', async () => {
    const a = await admitted();
    const url = `/api/room-actions/v1/bindings/${a.source.id}/actions/pending`;
    for (const [rawBody, headers] of [
      ['hello', { 'content-type': 'text/plain' }],
      ['{"schema":', {}],
    ] as const) {
      const none = await api(h.url, 'POST', url, { rawBody, headers });
      expect([none.status, none.body?.code]).toEqual([401, 'unauthorized']);
      const bearer = await api(h.url, 'POST', url, { token: a.source.bearer, rawBody, headers });
      expect([bearer.status, bearer.body?.code]).toEqual([401, 'invalid_token']);
    }
  });

  it('SRC-06, M-02: rotation and revocation drop the action credential with the bearer', async () => {
    const rotated = await admitted();
    await rotateSource(rooms, alice, rotated.source.id);
    expect((await poll(rotated.source.id, rotated.action, rotated.epoch)).status).toBe(401);
    expect((await store.read.roomSources.getSource(rotated.source.id))?.actionCredentialHash).toBeNull();
    const revoked = await admitted();
    await revokeSource(rooms, alice, revoked.source.id);
    expect((await poll(revoked.source.id, revoked.action, revoked.epoch)).status).toBe(401);
  });

  it('SRC-06, M-02: the credential expires with the source', async () => {
    const source = await newSource(undefined, 60_000);
    const epoch = newEpoch();
    expect((await ingressPost(h, source, 'manifest', manifestBody(epoch, clock.now(), WORLD))).status).toBe(200);
    clock.advance(60_001);
    expect((await poll(source.id, source.actionToken ?? '', epoch)).status).toBe(401);
  });

  it('§23.3: the action lane needs the current admission for the same producer epoch', async () => {
    const { source, action } = await admitted();
    const otherEpoch = await poll(source.id, action, newEpoch());
    expect(otherEpoch.status).toBe(409);
    expect(otherEpoch.body.code).toBe('environment_adapter_admission_required');
  });

  it('MC-12: a result for an action Helix never issued is not found; a bad body is refused', async () => {
    const { source, epoch, action } = await admitted();
    const result = await actionPost(h, source.id, action, 'actions/result', {
      schema: 'helix.environment_action_result.v1',
      ...envelope(epoch, clock.now()),
      action_id: `act_${randomUUID()}`,
      workflow_ref: `wf_${randomUUID()}`,
      status: 'completed',
      reason: null,
      postcondition: { kind: 'look', yaw: 0, pitch: 0 },
      observed_at: new Date(clock.now()).toISOString(),
    });
    expect(result.status, result.text).toBe(404);
    const smuggled = await actionPost(h, source.id, action, 'actions/result', {
      schema: 'helix.environment_action_result.v1',
      ...envelope(epoch, clock.now()),
      action_id: `act_${randomUUID()}`,
      workflow_ref: `wf_${randomUUID()}`,
      status: 'failed',
      reason: '/op helix_scout',
      postcondition: null,
      observed_at: new Date(clock.now()).toISOString(),
    });
    expect(smuggled.status).toBe(400);
  });

  it('M-02: an adapter without an action lane gets no action credential', async () => {
    const source = await newSource(FIXTURE);
    expect(source.actionToken).toBeNull();
  });

  it('SRC-05: claiming answers the action credential once (the delivery is single use)', async () => {
    const made = await newSource();
    const row = await store.read.roomSources.getSource(made.id);
    expect(row?.actionCredentialHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(made.actionToken ?? 'unset');
    await expect(claimDelivery(rooms, alice, `hlxdlv_${'A'.repeat(43)}`)).rejects.toMatchObject({ code: 'not_found' });
  });
});
