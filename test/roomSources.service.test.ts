import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownershipOf, type Principal } from '../src/auth/principal.js';
import { DENY_ALL, featuresFrom } from '../src/domain/accountPolicy.js';
import { createAdapterRegistry } from '../src/domain/environmentAdapterRegistry.js';
import { sha256Hex } from '../src/domain/hashing.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { acceptConsent } from '../src/service/rooms/acceptConsent.js';
import { createRoom } from '../src/service/rooms/createRoom.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { authenticateSourceBearer } from '../src/service/roomSources/authenticateSourceBearer.js';
import { claimDelivery } from '../src/service/roomSources/claimDelivery.js';
import { createSource } from '../src/service/roomSources/createSource.js';
import { listSources } from '../src/service/roomSources/listSources.js';
import { revokeSource } from '../src/service/roomSources/revokeSource.js';
import { rotateSource } from '../src/service/roomSources/rotateSource.js';
import { insertActiveAccounts, refusal, roomPrincipal, roomTestDeps } from './support/roomDeps.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const SECRET = 'room-source-test-instance-secret';
const SCOPES = 'helix.rooms.read helix.rooms.manage helix.room_sources.manage';

const principal = (accountId: string, scopes = SCOPES): Principal => roomPrincipal(accountId, scopes);

const MINECRAFT = {
  domain_adapter: 'game.minecraft.readonly.v1',
  world_id: 'minecraft:overworld',
  source_label: 'Survival',
  ttl_ms: 3_600_000,
};

describe.each(storeFlavours())('room source use cases on $name', (flavour) => {
  let t: TestStore;
  let deps: RoomDeps;
  let clock = 1_800_000_000_000;
  let seq = 0;
  // alice and carol are developers; bob is not.
  const developers = new Set(['acct_alice', 'acct_carol']);
  const policy = (id: string) => ({
    ...DENY_ALL,
    features: featuresFrom(developers.has(id) ? ['shared_live_room', 'developer'] : ['shared_live_room']),
  });
  const alice = principal('acct_alice');
  const bob = principal('acct_bob');
  const carol = principal('acct_carol');
  const newRoom = async (p: Principal): Promise<string> =>
    (await createRoom(deps, p, `room-key-${++seq}`, { title: 'World' })).body.room.room_id;
  const create = (p: Principal, roomId: string, body: unknown = MINECRAFT, key = `source-key-${++seq}`) =>
    createSource(deps, p, roomId, key, body);

  beforeAll(async () => {
    t = await flavour.create();
    deps = roomTestDeps(t.store, SECRET, policy, () => clock);
    await insertActiveAccounts(t.store, ['acct_alice', 'acct_bob', 'acct_carol'], clock);
  });
  afterAll(async () => t.dispose());

  it('RREST-09, SRC-01, SRC-02: the owner creates a source and gets a delivery handle, never a bearer', async () => {
    const roomId = await newRoom(alice);
    const created = await create(alice, roomId);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      schema: 'helix.shared_live_room.source_create_receipt.v1',
      bearer_included: false,
      plugin_config_included: false,
      answer_authority: false,
      source: {
        room_id: roomId,
        domain_adapter: 'game.minecraft.readonly.v1',
        world_id: 'minecraft:overworld',
        source_label: 'Survival',
        status: 'active',
        credential_status: 'pending_claim',
        adapter_profile: { profile_id: 'game.minecraft.readonly.v1', profile_version: 1 },
        execution_enabled: false,
      },
    });
    const delivery = created.body.credential_delivery;
    expect(Object.keys(delivery ?? {}).sort()).toEqual(['claim_handle', 'claim_url', 'expires_at']);
    expect(delivery?.claim_handle).toMatch(/^hlxdlv_[A-Za-z0-9_-]{43}$/);
    expect(delivery?.claim_url).toBe(`/account/room-sources/claim#${delivery?.claim_handle}`);
    expect(JSON.stringify(created.body)).not.toMatch(/hlxsrc_/);
  });

  it('owner-only, scope, membership and registry refusals (RREST-09, D-01, ING-04)', async () => {
    const roomId = await newRoom(alice);
    const { token } = await createInvite(deps, 'acct_alice', roomId, { role: 'member' });
    const joined = await acceptInvite(deps, 'acct_bob', token);
    await acceptConsent(deps, 'acct_bob', roomId, joined.consent.version);
    expect(await refusal(create(bob, roomId))).toMatchObject({ code: 'room_role_forbidden' });
    expect(await refusal(create(carol, roomId))).toMatchObject({ code: 'not_found' });
    expect(await refusal(create(principal('acct_alice', 'helix.rooms.manage'), roomId))).toMatchObject({
      code: 'insufficient_scope',
      scope: 'helix.room_sources.manage',
    });
    expect(await refusal(create(alice, roomId, { ...MINECRAFT, domain_adapter: 'terraria' }))).toMatchObject({
      code: 'environment_adapter_unknown',
      status: 400,
    });
    expect(await refusal(create(alice, roomId, { ...MINECRAFT, world_id: 'synthetic-game:a' }))).toMatchObject({
      code: 'environment_adapter_identity_mismatch',
    });
    const noFixtures = { ...deps, adapters: createAdapterRegistry({ fixturesEnabled: false }) };
    const fixture = { ...MINECRAFT, domain_adapter: 'synthetic_game.fixture.v1', world_id: 'synthetic-game:a' };
    expect(await refusal(createSource(noFixtures, alice, roomId, 'fixture-key-1', fixture))).toMatchObject({
      code: 'environment_adapter_disabled',
    });
    expect((await create(alice, roomId, fixture)).body.source.adapter_profile.profile_id).toBe(
      'game.synthetic_fixture.readonly.v1',
    );
    for (const bad of [
      { ...MINECRAFT, extra: 1 },
      { ...MINECRAFT, ttl_ms: 1_000 },
      { ...MINECRAFT, source_label: 'two\nlines' },
      { ...MINECRAFT, source_label: `hlx_${'a'.repeat(30)}` },
    ]) {
      expect(await refusal(create(alice, roomId, bad))).toMatchObject({ code: 'invalid_request' });
    }
    expect(await refusal(createSource(deps, alice, roomId, 'short', MINECRAFT))).toMatchObject({
      code: 'idempotency_key_required',
    });
  });

  it('SRC-03: the receipt holds no handle; a replay closes the old handle and answers a fresh one until claimed', async () => {
    const roomId = await newRoom(alice);
    const first = await create(alice, roomId, MINECRAFT, 'replay-key-1');
    const replay = await create(alice, roomId, MINECRAFT, 'replay-key-1');
    expect(replay.replayed).toBe(true);
    expect(replay.body.source.source_id).toBe(first.body.source.source_id);
    const handles = [first.body.credential_delivery?.claim_handle, replay.body.credential_delivery?.claim_handle];
    expect(handles[1]).toMatch(/^hlxdlv_/);
    expect(handles[1]).not.toBe(handles[0]);
    const receipt = await t.store.read.receipts.get({
      ownerHash: ownershipOf(alice, SECRET).ownerHash,
      operation: 'room.source_create',
      keyHash: sha256Hex('replay-key-1'),
    });
    expect(receipt?.responseBody).toContain(first.body.source.source_id);
    expect(receipt?.responseBody).not.toMatch(/hlxdlv_|hlxsrc_/);
    expect(await refusal(claimDelivery(deps, 'acct_alice', handles[0] ?? ''))).toMatchObject({ code: 'not_found' });
    await claimDelivery(deps, 'acct_alice', handles[1] ?? '');
    const afterClaim = await create(alice, roomId, MINECRAFT, 'replay-key-1');
    expect(afterClaim.body.credential_delivery).toBeNull();
    expect(afterClaim.body.source.credential_status).toBe('issued');
    expect(await refusal(create(alice, roomId, { ...MINECRAFT, source_label: 'Other' }, 'replay-key-1'))).toMatchObject(
      {
        code: 'idempotency_conflict',
      },
    );
  });

  it('SRC-04, SRC-05, D-05: a developer owner claims once; the bearer authenticates only its binding and is stored hashed', async () => {
    const roomA = await newRoom(alice);
    const roomB = await newRoom(alice);
    const a = (await create(alice, roomA)).body;
    const b = (await create(alice, roomB)).body;
    const handle = a.credential_delivery?.claim_handle ?? '';
    expect(await refusal(claimDelivery(deps, 'acct_carol', handle))).toMatchObject({ code: 'not_found' });
    const claimed = await claimDelivery(deps, 'acct_alice', handle);
    expect(claimed).toMatchObject({
      token_value_shown_once: true,
      plugin_config: {
        binding_id: a.source.source_id,
        ingress_base_path: `/api/room-ingress/v1/bindings/${a.source.source_id}`,
        world_id: 'minecraft:overworld',
        domain_adapter: 'game.minecraft.readonly.v1',
      },
    });
    expect(claimed.token_value).toMatch(/^hlxsrc_[A-Za-z0-9_-]{43}$/);
    expect(await refusal(claimDelivery(deps, 'acct_alice', handle))).toMatchObject({ code: 'not_found' });
    const source = await authenticateSourceBearer(deps, a.source.source_id, claimed.token_value);
    expect(source.credentialHash).toBe(sha256Hex(claimed.token_value));
    // Room A's bearer on room B's binding.
    expect(await refusal(authenticateSourceBearer(deps, b.source.source_id, claimed.token_value))).toMatchObject({
      code: 'invalid_token',
    });
    const listed = await listSources(deps, alice, roomA);
    expect(JSON.stringify(listed.body)).not.toContain(claimed.token_value);
    expect(JSON.stringify(listed.body)).not.toContain(sha256Hex(claimed.token_value));
    if (t.location !== undefined && existsSync(t.location)) {
      const files = [t.location, `${t.location}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1'));
      for (const bytes of files) {
        expect(bytes).not.toContain(claimed.token_value);
        expect(bytes).not.toContain(handle);
      }
    }
  });

  it('D-05: an owner without the developer flag cannot claim', async () => {
    const roomId = await newRoom(bob);
    const created = (await create(bob, roomId)).body;
    expect(
      await refusal(claimDelivery(deps, 'acct_bob', created.credential_delivery?.claim_handle ?? '')),
    ).toMatchObject({ code: 'feature_not_enabled', feature: 'developer' });
  });

  it('SRC-06: rotation, revocation and expiry each stop the bearer at the next authentication', async () => {
    const roomId = await newRoom(alice);
    const claimOf = async () => {
      const made = (await create(alice, roomId, { ...MINECRAFT, ttl_ms: 600_000 })).body;
      const claimed = await claimDelivery(deps, 'acct_alice', made.credential_delivery?.claim_handle ?? '');
      return { id: made.source.source_id, bearer: claimed.token_value };
    };
    const rotated = await claimOf();
    const rotation = await rotateSource(deps, 'acct_alice', rotated.id);
    expect(rotation.source.credential_status).toBe('pending_claim');
    expect(await refusal(authenticateSourceBearer(deps, rotated.id, rotated.bearer))).toMatchObject({
      code: 'invalid_token',
    });
    const next = await claimDelivery(deps, 'acct_alice', rotation.credential_delivery.claim_handle);
    expect((await authenticateSourceBearer(deps, rotated.id, next.token_value)).sourceId).toBe(rotated.id);

    const revoked = await claimOf();
    expect((await revokeSource(deps, 'acct_alice', revoked.id)).revocation_status).toBe('revoked');
    expect((await revokeSource(deps, 'acct_alice', revoked.id)).revocation_status).toBe('already_revoked');
    expect(await refusal(authenticateSourceBearer(deps, revoked.id, revoked.bearer))).toMatchObject({
      code: 'invalid_token',
    });
    expect(await refusal(rotateSource(deps, 'acct_alice', revoked.id))).toMatchObject({ code: 'not_found' });
    expect(await refusal(revokeSource(deps, 'acct_bob', revoked.id))).toMatchObject({ code: 'not_found' });

    const expiring = await claimOf();
    clock += 600_000;
    expect(await refusal(authenticateSourceBearer(deps, expiring.id, expiring.bearer))).toMatchObject({
      code: 'invalid_token',
    });
    const listed = (await listSources(deps, alice, roomId)).body.sources.find((s) => s.source_id === expiring.id);
    expect(listed?.status).toBe('expired');
  });

  it('SRC-05: a delivery expires unclaimed after 15 minutes', async () => {
    const roomId = await newRoom(alice);
    const made = (await create(alice, roomId)).body;
    clock += 15 * 60_000;
    expect(
      await refusal(claimDelivery(deps, 'acct_alice', made.credential_delivery?.claim_handle ?? '')),
    ).toMatchObject({
      code: 'not_found',
    });
  });

  it('RREST-08, SRC-09: listing is owner-only and bounded projections', async () => {
    const roomId = await newRoom(alice);
    await create(alice, roomId);
    const listed = await listSources(deps, alice, roomId);
    expect(listed.body).toMatchObject({ schema: 'helix.shared_live_room.source_list_receipt.v1', truncated: false });
    expect(listed.body.sources).toHaveLength(1);
    expect(await refusal(listSources(deps, carol, roomId))).toMatchObject({ code: 'not_found' });
  });
});
