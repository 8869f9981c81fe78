import { HelixError } from '../../domain/errors.js';
import { OBSERVATION_KINDS, type ObservationRecord } from '../../domain/roomObservations.js';
import { DEFAULT_ROOM_STORAGE_LIMITS, type RoomStorageLimits } from '../../domain/roomStorage.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomDeps } from '../rooms/deps.js';

/** The deployment's bounds (HELIX_ROOM_*), or the bounded defaults: storage is never unbounded. */
export const storageLimitsOf = (deps: RoomDeps): RoomStorageLimits => deps.storageLimits ?? DEFAULT_ROOM_STORAGE_LIMITS;

/**
 * Ledger retention (ING-02's request identity, docs/rooms.md "Storage bounds"), in the transaction
 * that looks a request up, before it does: a request is answered again while it is younger than
 * the replay window and among its source's newest `ledgerPerSource`; after that its identity is
 * forgotten and a retry is judged afresh (what it could add is no fresher than the evidence
 * ceiling admits, ING-05, and it still needs the source's current admission).
 */
export const pruneLedger = (uow: UnitOfWork, sourceId: string, now: number, limits: RoomStorageLimits) =>
  uow.roomIngress.pruneRequests(sourceId, now - limits.replayWindowMs, limits.ledgerPerSource);

/**
 * Stores a request's observations within the room's bounds, in the request's transaction: each
 * kind keeps the source's newest `observationsPerSource` (by observation time, so the newest,
 * the one evidence and the subject directory read, always stays), then the room's observations
 * must fit `roomQuotaBytes`. Over it, the source first gives up its own oldest observations
 * (never one being stored now, nor its newest of a kind); when that cannot make room, other
 * sources of the room hold the space and the request is refused `room_storage_quota_exceeded`,
 * storing nothing. Concurrent writers of one room on PostgreSQL may overshoot the quota by the
 * requests in flight; the next write brings the room back under it.
 */
export const storeObservations = async (
  uow: UnitOfWork,
  source: RoomSourceRecord,
  observations: readonly ObservationRecord[],
  limits: RoomStorageLimits,
): Promise<void> => {
  await uow.roomIngress.insertObservations(observations);
  for (const kind of new Set(observations.map((o) => o.kind)))
    await uow.roomIngress.pruneObservations(source.sourceId, kind, limits.observationsPerSource);
  const excess = (await uow.roomIngress.roomObservationBytes(source.roomId)) - limits.roomQuotaBytes;
  if (excess > 0) await makeRoom(uow, source, observations, excess, limits);
};

/** The most rows one refusal check reads: what a source keeps of every kind, within reason. */
const DISPLACEMENT_SCAN_MAX = 10_000;

const makeRoom = async (
  uow: UnitOfWork,
  source: RoomSourceRecord,
  stored: readonly ObservationRecord[],
  excess: number,
  limits: RoomStorageLimits,
): Promise<void> => {
  const kept = new Set(stored.map((o) => o.observationId));
  for (const kind of OBSERVATION_KINDS) {
    const newest = await uow.roomIngress.latestObservation(source.sourceId, kind);
    if (newest !== undefined) kept.add(newest.observationId);
  }
  const scan = Math.min(limits.observationsPerSource * OBSERVATION_KINDS.length, DISPLACEMENT_SCAN_MAX);
  const displaced: string[] = [];
  let freed = 0;
  for (const older of await uow.roomIngress.oldestObservations(source.sourceId, scan)) {
    if (freed >= excess) break;
    if (kept.has(older.observationId)) continue;
    displaced.push(older.observationId);
    freed += older.payloadBytes;
  }
  if (freed < excess) throw new HelixError('room_storage_quota_exceeded', { quota_bytes: limits.roomQuotaBytes });
  await uow.roomIngress.deleteObservations(displaced);
};
