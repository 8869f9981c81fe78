import type { Kysely, Selectable } from 'kysely';
import type {
  IngressRequestRecord,
  ObservationKind,
  ObservationRecord,
  ProbeRecord,
  ProbeStatus,
  SourceStatusRecord,
} from '../../domain/roomObservations.js';
import type { ObservationSize, RoomIngressRepository } from '../roomIngressPort.js';
import type {
  HelixDatabase,
  RoomIngressRequestsTable,
  RoomObservationsTable,
  RoomProbesTable,
  RoomSourceStatusTable,
} from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

/** A source's observations of one kind, newest first: latestObservation's order, which retention keeps. */
const newestFirst = (db: Kysely<HelixDatabase>, sourceId: string, kind: ObservationKind) =>
  db
    .selectFrom('helix_room_observations')
    .where('source_id', '=', sourceId)
    .where('kind', '=', kind)
    .orderBy('observed_at', 'desc')
    .orderBy('received_at', 'desc')
    .orderBy('observation_id', 'desc');

const requestFromRow = (row: Selectable<RoomIngressRequestsTable>): IngressRequestRecord => ({
  sourceId: row.source_id,
  requestId: row.request_id,
  ownerHash: row.owner_hash,
  route: row.route,
  bodyHash: row.body_hash,
  producerEpochHash: row.producer_epoch_hash,
  receivedAt: toMillis(row.received_at),
  responseJson: row.response_json,
});

const statusFromRow = (row: Selectable<RoomSourceStatusTable>): SourceStatusRecord => ({
  sourceId: row.source_id,
  ownerHash: row.owner_hash,
  producerEpochHash: row.producer_epoch_hash,
  lastHeartbeatAt: toMillis(row.last_heartbeat_at),
  gameConnected: Number(row.game_connected) === 1,
  lastObservedAt: toMillisOrNull(row.last_observed_at),
});

const observationFromRow = (row: Selectable<RoomObservationsTable>): ObservationRecord => ({
  observationId: row.observation_id,
  sourceId: row.source_id,
  roomId: row.room_id,
  ownerHash: row.owner_hash,
  worldId: row.world_id,
  admissionId: row.admission_id,
  profileId: row.profile_id,
  profileVersion: row.profile_version,
  profileHash: row.profile_hash,
  manifestId: row.manifest_id,
  manifestHash: row.manifest_hash,
  producerEpochHash: row.producer_epoch_hash,
  requestId: row.request_id,
  eventId: row.event_id,
  kind: row.kind as ObservationKind,
  observedAt: toMillis(row.observed_at),
  receivedAt: toMillis(row.received_at),
  payloadJson: row.payload_json,
  payloadSha256: row.payload_sha256,
  payloadBytes: Number(row.payload_bytes),
});

const probeFromRow = (row: Selectable<RoomProbesTable>): ProbeRecord => ({
  probeId: row.probe_id,
  sourceId: row.source_id,
  roomId: row.room_id,
  ownerHash: row.owner_hash,
  runId: row.run_id,
  turn: row.turn,
  probeType: row.probe_type,
  status: row.status as ProbeStatus,
  requestedAt: toMillis(row.requested_at),
  expiresAt: toMillis(row.expires_at),
  deliveredAt: toMillisOrNull(row.delivered_at),
  answeredAt: toMillisOrNull(row.answered_at),
  observationId: row.observation_id,
});

const observationRow = (o: ObservationRecord): RoomObservationsTable => ({
  observation_id: o.observationId,
  source_id: o.sourceId,
  room_id: o.roomId,
  owner_hash: o.ownerHash,
  world_id: o.worldId,
  admission_id: o.admissionId,
  profile_id: o.profileId,
  profile_version: o.profileVersion,
  profile_hash: o.profileHash,
  manifest_id: o.manifestId,
  manifest_hash: o.manifestHash,
  producer_epoch_hash: o.producerEpochHash,
  request_id: o.requestId,
  event_id: o.eventId,
  kind: o.kind,
  observed_at: o.observedAt,
  received_at: o.receivedAt,
  payload_json: o.payloadJson,
  payload_sha256: o.payloadSha256,
  payload_bytes: o.payloadBytes,
});

type Part<K extends keyof RoomIngressRepository> = Pick<RoomIngressRepository, K>;

const requestRecords = (
  db: Kysely<HelixDatabase>,
): Part<'getRequest' | 'insertRequest' | 'pruneRequests' | 'upsertStatus' | 'getStatus'> => ({
  async getRequest(sourceId, requestId) {
    const row = await db
      .selectFrom('helix_room_ingress_requests')
      .selectAll()
      .where('source_id', '=', sourceId)
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    return row === undefined ? undefined : requestFromRow(row);
  },
  async insertRequest(r) {
    const result = await db
      .insertInto('helix_room_ingress_requests')
      .values({
        source_id: r.sourceId,
        request_id: r.requestId,
        owner_hash: r.ownerHash,
        route: r.route,
        body_hash: r.bodyHash,
        producer_epoch_hash: r.producerEpochHash,
        received_at: r.receivedAt,
        response_json: r.responseJson,
      })
      .onConflict((oc) => oc.columns(['source_id', 'request_id']).doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) === 1n;
  },
  async pruneRequests(sourceId, receivedBefore, keep) {
    // The newest entry past the `keep` newest: it and everything older go (a row-value comparison).
    const cutoff = await db
      .selectFrom('helix_room_ingress_requests')
      .select(['received_at', 'request_id'])
      .where('source_id', '=', sourceId)
      .orderBy('received_at', 'desc')
      .orderBy('request_id', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    const result = await db
      .deleteFrom('helix_room_ingress_requests')
      .where('source_id', '=', sourceId)
      .where((eb) =>
        cutoff === undefined
          ? eb('received_at', '<', receivedBefore)
          : eb.or([
              eb('received_at', '<', receivedBefore),
              eb(
                eb.refTuple('received_at', 'request_id'),
                '<=',
                eb.tuple(Number(cutoff.received_at), cutoff.request_id),
              ),
            ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
  async upsertStatus(s) {
    const values = {
      owner_hash: s.ownerHash,
      producer_epoch_hash: s.producerEpochHash,
      last_heartbeat_at: s.lastHeartbeatAt,
      game_connected: s.gameConnected ? 1 : 0,
      last_observed_at: s.lastObservedAt,
    };
    await db
      .insertInto('helix_room_source_status')
      .values({ source_id: s.sourceId, ...values })
      .onConflict((oc) => oc.column('source_id').doUpdateSet(values))
      .execute();
  },
  async getStatus(sourceId) {
    const row = await db
      .selectFrom('helix_room_source_status')
      .selectAll()
      .where('source_id', '=', sourceId)
      .executeTakeFirst();
    return row === undefined ? undefined : statusFromRow(row);
  },
});

const observationRecords = (
  db: Kysely<HelixDatabase>,
): Part<
  | 'insertObservations'
  | 'getObservation'
  | 'latestObservation'
  | 'pruneObservations'
  | 'roomObservationBytes'
  | 'oldestObservations'
  | 'deleteObservations'
> => ({
  async insertObservations(observations) {
    if (observations.length === 0) return;
    await db.insertInto('helix_room_observations').values(observations.map(observationRow)).execute();
  },
  async getObservation(observationId) {
    const row = await db
      .selectFrom('helix_room_observations')
      .selectAll()
      .where('observation_id', '=', observationId)
      .executeTakeFirst();
    return row === undefined ? undefined : observationFromRow(row);
  },
  async latestObservation(sourceId, kind) {
    const row = await newestFirst(db, sourceId, kind).selectAll().limit(1).executeTakeFirst();
    return row === undefined ? undefined : observationFromRow(row);
  },
  async pruneObservations(sourceId, kind, keep) {
    const cutoff = await newestFirst(db, sourceId, kind)
      .select(['observed_at', 'received_at', 'observation_id'])
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    if (cutoff === undefined) return 0;
    const result = await db
      .deleteFrom('helix_room_observations')
      .where('source_id', '=', sourceId)
      .where('kind', '=', kind)
      .where((eb) =>
        eb(
          eb.refTuple('observed_at', 'received_at', 'observation_id'),
          '<=',
          eb.tuple(Number(cutoff.observed_at), Number(cutoff.received_at), cutoff.observation_id),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
  async roomObservationBytes(roomId) {
    const row = await db
      .selectFrom('helix_room_observations')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('payload_bytes'), eb.lit(0)).as('bytes'))
      .where('room_id', '=', roomId)
      .executeTakeFirst();
    return Number(row?.bytes ?? 0);
  },
  async oldestObservations(sourceId, limit): Promise<ObservationSize[]> {
    const rows = await db
      .selectFrom('helix_room_observations')
      .select(['observation_id', 'kind', 'payload_bytes'])
      .where('source_id', '=', sourceId)
      .orderBy('observed_at')
      .orderBy('received_at')
      .orderBy('observation_id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      observationId: r.observation_id,
      kind: r.kind as ObservationKind,
      payloadBytes: Number(r.payload_bytes),
    }));
  },
  async deleteObservations(observationIds) {
    if (observationIds.length === 0) return 0;
    const result = await db
      .deleteFrom('helix_room_observations')
      .where('observation_id', 'in', observationIds)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});

const OPEN_PROBE: readonly ProbeStatus[] = ['pending', 'delivered'];

const probeRecords = (
  db: Kysely<HelixDatabase>,
): Part<'insertProbe' | 'getProbe' | 'takeProbes' | 'answerProbe' | 'expireProbe'> => ({
  async insertProbe(p) {
    await db
      .insertInto('helix_room_probes')
      .values({
        probe_id: p.probeId,
        source_id: p.sourceId,
        room_id: p.roomId,
        owner_hash: p.ownerHash,
        run_id: p.runId,
        turn: p.turn,
        probe_type: p.probeType,
        status: p.status,
        requested_at: p.requestedAt,
        expires_at: p.expiresAt,
        delivered_at: p.deliveredAt,
        answered_at: p.answeredAt,
        observation_id: p.observationId,
      })
      .execute();
  },
  async getProbe(probeId) {
    const row = await db.selectFrom('helix_room_probes').selectAll().where('probe_id', '=', probeId).executeTakeFirst();
    return row === undefined ? undefined : probeFromRow(row);
  },
  async takeProbes(sourceId, at, limit) {
    const rows = await db
      .selectFrom('helix_room_probes')
      .selectAll()
      .where('source_id', '=', sourceId)
      .where('status', 'in', OPEN_PROBE)
      .where('expires_at', '>', at)
      .orderBy('requested_at')
      .orderBy('probe_id')
      .limit(limit)
      .execute();
    const pending = rows.filter((r) => r.status === 'pending').map((r) => r.probe_id);
    if (pending.length > 0)
      await db
        .updateTable('helix_room_probes')
        .set({ status: 'delivered', delivered_at: at })
        .where('probe_id', 'in', pending)
        .where('status', '=', 'pending')
        .execute();
    return rows.map((r) =>
      r.status === 'pending' ? { ...probeFromRow(r), status: 'delivered' as const, deliveredAt: at } : probeFromRow(r),
    );
  },
  async answerProbe(probeId, status, observationId, at) {
    const result = await db
      .updateTable('helix_room_probes')
      .set({ status, observation_id: observationId, answered_at: at })
      .where('probe_id', '=', probeId)
      .where('status', 'in', OPEN_PROBE)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },
  async expireProbe(probeId, at) {
    const result = await db
      .updateTable('helix_room_probes')
      .set({ status: 'expired', answered_at: at })
      .where('probe_id', '=', probeId)
      .where('status', 'in', OPEN_PROBE)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },
});

export const roomIngressRepository = (db: Kysely<HelixDatabase>): RoomIngressRepository => ({
  ...requestRecords(db),
  ...observationRecords(db),
  ...probeRecords(db),
});
