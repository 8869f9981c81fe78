import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { featuresFrom } from '../../src/domain/accountPolicy.js';
import { createAdapterRegistry } from '../../src/domain/environmentAdapterRegistry.js';
import { MINECRAFT_INVENTORY_CHECK_PROBE } from '../../src/domain/environmentAdapterProfiles.js';
import type { Store } from '../../src/store/port.js';
import { changeAccountPolicy } from '../../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../../src/service/accounts/createAccount.js';
import type { RoomDeps } from '../../src/service/rooms/deps.js';
import { claimDelivery } from '../../src/service/roomSources/claimDelivery.js';
import { accountDeps } from './accounts.js';
import { api, idemKey, type TestHelix } from './harness.js';
import { serverRoomDeps } from './roomDeps.js';

const DEFAULTS = { features: featuresFrom([]), defaultCapability: 'admit' as const, capabilities: {} };
const SCOPES = 'helix.rooms.read helix.rooms.manage helix.room_sources.manage';
export const MINECRAFT_SOURCE = {
  domain_adapter: 'game.minecraft.readonly.v1',
  world_id: 'minecraft:overworld',
  source_label: 'Survival',
};

export interface ClaimedSource {
  readonly roomId: string;
  readonly id: string;
  readonly bearer: string;
  /** M-02: the action credential claimed with the bearer; null when the adapter has no action lane. */
  readonly actionToken: string | null;
}

/** A developer room owner beside a running server, who makes sources and claims their bearers. */
export const sourceOwner = async (h: TestHelix, now: () => number) => {
  const store = h.testStore.store;
  const accounts = await accountDeps(store);
  const rooms: RoomDeps = {
    ...(await serverRoomDeps(store, DEFAULTS)),
    now,
    adapters: createAdapterRegistry({ fixturesEnabled: true }),
  };
  const accountId = (await createAccount(accounts, { displayName: 'owner' })).accountId;
  await changeAccountPolicy(accounts, DEFAULTS, accountId, { features: { shared_live_room: true, developer: true } });
  const token = await h.key(SCOPES, 'tenant-a', accountId);
  /** A new room with one source (POST …/sources), its delivery claimed as the console does. */
  const newSource = async (body: object = MINECRAFT_SOURCE, ttlMs = 3_600_000): Promise<ClaimedSource> => {
    const room = await api(h.url, 'POST', '/api/v1/rooms', {
      token,
      idempotencyKey: idemKey('room'),
      body: { title: 'W' },
    });
    const roomId = room.body.room.room_id as string;
    const made = await api(h.url, 'POST', `/api/v1/rooms/${roomId}/sources`, {
      token,
      idempotencyKey: idemKey('source'),
      body: { ...body, ttl_ms: ttlMs },
    });
    expect(made.status, made.text).toBe(201);
    const claimed = await claimDelivery(rooms, accountId, made.body.credential_delivery.claim_handle);
    return {
      roomId,
      id: made.body.source.source_id,
      bearer: claimed.token_value,
      actionToken: claimed.action_token_value,
    };
  };
  return { rooms, accountId, token, newSource };
};

/** POSTs a body to one ingress route of a binding with its bearer. */
export const ingressPost = (h: TestHelix, source: Pick<ClaimedSource, 'id' | 'bearer'>, route: string, body: unknown) =>
  api(h.url, 'POST', `/api/room-ingress/v1/bindings/${source.id}/${route}`, { token: source.bearer, body });

/** POSTs a body to one action-lane route of a binding (§23.3) with the given credential. */
export const actionPost = (h: TestHelix, bindingId: string, credential: string, route: string, body: unknown) =>
  api(h.url, 'POST', `/api/room-actions/v1/bindings/${bindingId}/${route}`, { token: credential, body });

/**
 * A pending probe of the source, as the run side inserts it (the use case that asks for probes is
 * not part of the ingress); answers its id, which has the connector's id format.
 */
export const insertPendingProbe = async (
  store: Store,
  sourceId: string,
  at: number,
  options: { probeType?: string; ttlMs?: number; runId?: string } = {},
): Promise<string> => {
  const source = await store.read.roomSources.getSource(sourceId);
  if (source === undefined) throw new Error(`no source ${sourceId}`);
  const probeId = `prb_${randomUUID().replaceAll('-', '')}`;
  await store.read.roomIngress.insertProbe({
    probeId,
    sourceId,
    roomId: source.roomId,
    ownerHash: source.ownerHash,
    runId: options.runId ?? 'run_ingress_test',
    turn: 1,
    probeType: options.probeType ?? MINECRAFT_INVENTORY_CHECK_PROBE,
    status: 'pending',
    requestedAt: at,
    expiresAt: at + (options.ttlMs ?? 60_000),
    deliveredAt: null,
    answeredAt: null,
    observationId: null,
  });
  return probeId;
};
