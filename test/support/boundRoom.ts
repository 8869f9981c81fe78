import { randomBytes } from 'node:crypto';
import { featuresFrom } from '../../src/domain/accountPolicy.js';
import type { ObservationKind, ObservationRecord } from '../../src/domain/roomObservations.js';
import type { AdapterAdmissionRecord, RoomSourceRecord } from '../../src/domain/roomSources.js';
import type { RoomDeps } from '../../src/service/rooms/deps.js';
import { claimDelivery } from '../../src/service/roomSources/claimDelivery.js';
import type { Store } from '../../src/store/port.js';
import { api, idemKey } from './harness.js';

/** Every account may use every capability; the room feature is granted per account. */
export const ADMIT_ALL = { features: featuresFrom([]), defaultCapability: 'admit' as const, capabilities: {} };

/** A snapshot as the Minecraft connector sends it (connectors/minecraft/src/wire.ts `snapshot`). */
export const minecraftSnapshot = (items: readonly { slot: number; name: string; count: number }[]) => ({
  player: {
    username: 'helix_probe',
    position: { x: 0.5, y: 5, z: 0.5 },
    yaw: 0,
    pitch: 0,
    dimension: 'minecraft:overworld',
    game_mode: 'survival',
  },
  vitals: { health: 20, food: 20, saturation: 5 },
  inventory: { items },
  nearby_blocks: { radius: 2, standing_on: 'grass_block', counts: [{ name: 'stone', count: 12 }] },
  nearby_entities: [],
  time: { time_of_day: 6000, day: 0, is_day: true },
});

/** A room source that claimed its credential and holds a current admission, as the ingress lane leaves it. */
export interface AdmittedRoomSource {
  readonly roomId: string;
  readonly source: RoomSourceRecord;
  readonly admission: AdapterAdmissionRecord;
}

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

/**
 * Creates a room (over REST, as `token`'s account), a Minecraft source in it, claims the source's
 * credential and records a current admission under the registry's profile contract.
 */
export const roomWithAdmittedSource = async (
  url: string,
  token: string,
  rooms: RoomDeps,
  accountId: string,
  now: number,
): Promise<AdmittedRoomSource> => {
  const created = await api(url, 'POST', '/api/v1/rooms', {
    token,
    idempotencyKey: idemKey('room'),
    body: { title: 'World' },
  });
  return admittedSourceIn(url, token, rooms, accountId, created.body.room.room_id as string, now);
};

/**
 * A Minecraft source created in an existing room by `token`'s account (an owner of it), its
 * credential claimed and a current admission recorded, as roomWithAdmittedSource does.
 */
export const admittedSourceIn = async (
  url: string,
  token: string,
  rooms: RoomDeps,
  accountId: string,
  roomId: string,
  now: number,
): Promise<AdmittedRoomSource> => {
  const source = await api(url, 'POST', `/api/v1/rooms/${roomId}/sources`, {
    token,
    idempotencyKey: idemKey('source'),
    body: {
      domain_adapter: 'game.minecraft.readonly.v1',
      world_id: 'minecraft:overworld',
      source_label: 'Survival',
      ttl_ms: 3_600_000,
    },
  });
  if (source.status !== 201) throw new Error(`source create failed: ${source.text}`);
  const sourceId = source.body.source.source_id as string;
  await claimDelivery(rooms, accountId, source.body.credential_delivery.claim_handle);
  const record = await rooms.store.read.roomSources.getSource(sourceId);
  if (record === undefined) throw new Error('source not stored');
  const admission: AdapterAdmissionRecord = {
    admissionId: `adm_${hex(16)}`,
    sourceId,
    ownerHash: record.ownerHash,
    profileId: record.profileId,
    profileVersion: record.profileVersion,
    profileHash: record.profileHash,
    manifestId: `manifest-${hex(8)}`,
    manifestHash: hex(32),
    producerEpochHash: hex(32),
    admittedAt: now,
    invalidatedAt: null,
  };
  await rooms.store.read.roomSources.insertAdmission(admission);
  return { roomId, source: record, admission };
};

/** An observation row exactly as the ingress lane stores it, under the source's current admission. */
export const observationOf = (
  room: AdmittedRoomSource,
  payload: unknown,
  observedAt: number,
  options: { kind?: ObservationKind; eventId?: string; overrides?: Partial<ObservationRecord> } = {},
): ObservationRecord => {
  const payloadJson = JSON.stringify(payload);
  return {
    observationId: `obs_${hex(16)}`,
    sourceId: room.source.sourceId,
    roomId: room.roomId,
    ownerHash: room.admission.ownerHash,
    worldId: room.source.worldId,
    admissionId: room.admission.admissionId,
    profileId: room.admission.profileId,
    profileVersion: room.admission.profileVersion,
    profileHash: room.admission.profileHash,
    manifestId: room.admission.manifestId,
    manifestHash: room.admission.manifestHash,
    producerEpochHash: room.admission.producerEpochHash,
    requestId: `req-${hex(12)}`,
    eventId: options.eventId ?? `evt-${hex(12)}`,
    kind: options.kind ?? 'snapshot',
    observedAt,
    receivedAt: observedAt + 5,
    payloadJson,
    payloadSha256: hex(32),
    payloadBytes: Buffer.byteLength(payloadJson),
    ...options.overrides,
  };
};

export const insertObservation = (store: Store, observation: ObservationRecord): Promise<void> =>
  store.read.roomIngress.insertObservations([observation]);
