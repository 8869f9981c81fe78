import type { Kysely, Selectable } from 'kysely';
import type {
  AdapterAdmissionRecord,
  CredentialDeliveryRecord,
  RoomSourceRecord,
  SourceStatus,
} from '../../domain/roomSources.js';
import type { RoomSourceRepository } from '../roomSourcePort.js';
import type {
  HelixDatabase,
  RoomSourceAdmissionsTable,
  RoomSourceDeliveriesTable,
  RoomSourcesTable,
} from '../schema.js';
import { toMillis, toMillisOrNull } from './columns.js';

const sourceFromRow = (row: Selectable<RoomSourcesTable>): RoomSourceRecord => ({
  sourceId: row.source_id,
  roomId: row.room_id,
  domainAdapter: row.domain_adapter,
  worldId: row.world_id,
  label: row.label,
  profileId: row.profile_id,
  profileVersion: row.profile_version,
  profileHash: row.profile_hash,
  status: row.status as SourceStatus,
  credentialHash: row.credential_hash,
  credentialCreatedAt: toMillisOrNull(row.credential_created_at),
  actionCredentialHash: row.action_credential_hash,
  expiresAt: toMillis(row.expires_at),
  rotatedAt: toMillisOrNull(row.rotated_at),
  revokedAt: toMillisOrNull(row.revoked_at),
  createdBy: row.created_by,
  ownerHash: row.owner_hash,
  createdAt: toMillis(row.created_at),
});

const deliveryFromRow = (row: Selectable<RoomSourceDeliveriesTable>): CredentialDeliveryRecord => ({
  handleHash: row.handle_hash,
  sourceId: row.source_id,
  ownerHash: row.owner_hash,
  createdAt: toMillis(row.created_at),
  expiresAt: toMillis(row.expires_at),
  claimedAt: toMillisOrNull(row.claimed_at),
  claimedBy: row.claimed_by,
});

const admissionFromRow = (row: Selectable<RoomSourceAdmissionsTable>): AdapterAdmissionRecord => ({
  admissionId: row.admission_id,
  sourceId: row.source_id,
  ownerHash: row.owner_hash,
  profileId: row.profile_id,
  profileVersion: row.profile_version,
  profileHash: row.profile_hash,
  manifestId: row.manifest_id,
  manifestHash: row.manifest_hash,
  producerEpochHash: row.producer_epoch_hash,
  admittedAt: toMillis(row.admitted_at),
  invalidatedAt: toMillisOrNull(row.invalidated_at),
});

type Part<K extends keyof RoomSourceRepository> = Pick<RoomSourceRepository, K>;

const sourceRecords = (
  db: Kysely<HelixDatabase>,
): Part<'insertSource' | 'getSource' | 'listSources' | 'setCredential' | 'clearCredential' | 'endSource'> => {
  const changed = (result: { numUpdatedRows: bigint }): boolean => result.numUpdatedRows === 1n;
  return {
    async insertSource(s) {
      await db
        .insertInto('helix_room_sources')
        .values({
          source_id: s.sourceId,
          room_id: s.roomId,
          domain_adapter: s.domainAdapter,
          world_id: s.worldId,
          label: s.label,
          profile_id: s.profileId,
          profile_version: s.profileVersion,
          profile_hash: s.profileHash,
          status: s.status,
          credential_hash: s.credentialHash,
          credential_created_at: s.credentialCreatedAt,
          action_credential_hash: s.actionCredentialHash,
          expires_at: s.expiresAt,
          rotated_at: s.rotatedAt,
          revoked_at: s.revokedAt,
          created_by: s.createdBy,
          owner_hash: s.ownerHash,
          created_at: s.createdAt,
        })
        .execute();
    },
    async getSource(sourceId) {
      const row = await db
        .selectFrom('helix_room_sources')
        .selectAll()
        .where('source_id', '=', sourceId)
        .executeTakeFirst();
      return row === undefined ? undefined : sourceFromRow(row);
    },
    async listSources(roomId, limit) {
      const rows = await db
        .selectFrom('helix_room_sources')
        .selectAll()
        .where('room_id', '=', roomId)
        .orderBy('created_at')
        .orderBy('source_id')
        .limit(limit)
        .execute();
      return rows.map(sourceFromRow);
    },
    async setCredential(sourceId, hashes, at) {
      const result = await db
        .updateTable('helix_room_sources')
        .set({
          credential_hash: hashes.credentialHash,
          action_credential_hash: hashes.actionCredentialHash,
          credential_created_at: at,
        })
        .where('source_id', '=', sourceId)
        .where('status', '=', 'active')
        .where('credential_hash', 'is', null)
        .executeTakeFirst();
      return changed(result);
    },
    async clearCredential(sourceId, at) {
      const result = await db
        .updateTable('helix_room_sources')
        .set({ credential_hash: null, action_credential_hash: null, credential_created_at: null, rotated_at: at })
        .where('source_id', '=', sourceId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return changed(result);
    },
    async endSource(sourceId, status, at) {
      const result = await db
        .updateTable('helix_room_sources')
        .set({
          status,
          credential_hash: null,
          action_credential_hash: null,
          revoked_at: status === 'revoked' ? at : null,
        })
        .where('source_id', '=', sourceId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return changed(result);
    },
  };
};

/** SRC-06: the sources an owner created, which end when its ownership does (endOwnerAuthority). */
const creatorRecords = (db: Kysely<HelixDatabase>): Part<'listActiveSourcesOf'> => ({
  async listActiveSourcesOf(roomId, accountId) {
    const rows = await db
      .selectFrom('helix_room_sources')
      .selectAll()
      .where('room_id', '=', roomId)
      .where('created_by', '=', accountId)
      .where('status', '=', 'active')
      .orderBy('created_at')
      .orderBy('source_id')
      .execute();
    return rows.map(sourceFromRow);
  },
});

const deliveryRecords = (
  db: Kysely<HelixDatabase>,
): Part<'insertDelivery' | 'getDelivery' | 'claimDelivery' | 'closeDeliveries'> => ({
  async getDelivery(handleHash) {
    const row = await db
      .selectFrom('helix_room_source_deliveries')
      .selectAll()
      .where('handle_hash', '=', handleHash)
      .executeTakeFirst();
    return row === undefined ? undefined : deliveryFromRow(row);
  },
  async insertDelivery(d) {
    await db
      .insertInto('helix_room_source_deliveries')
      .values({
        handle_hash: d.handleHash,
        source_id: d.sourceId,
        owner_hash: d.ownerHash,
        created_at: d.createdAt,
        expires_at: d.expiresAt,
        claimed_at: d.claimedAt,
        claimed_by: d.claimedBy,
      })
      .execute();
  },
  async claimDelivery(handleHash, accountId, at) {
    const result = await db
      .updateTable('helix_room_source_deliveries')
      .set({ claimed_at: at, claimed_by: accountId })
      .where('handle_hash', '=', handleHash)
      .where('claimed_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) return undefined;
    const row = await db
      .selectFrom('helix_room_source_deliveries')
      .selectAll()
      .where('handle_hash', '=', handleHash)
      .executeTakeFirstOrThrow();
    return deliveryFromRow(row);
  },
  async closeDeliveries(sourceId, at) {
    // claimed_by stays null: a superseded delivery was closed, not claimed by anyone.
    const result = await db
      .updateTable('helix_room_source_deliveries')
      .set({ claimed_at: at })
      .where('source_id', '=', sourceId)
      .where('claimed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
});

const admissionRecords = (
  db: Kysely<HelixDatabase>,
): Part<'insertAdmission' | 'getCurrentAdmission' | 'invalidateAdmissions'> => ({
  async insertAdmission(a) {
    await db
      .insertInto('helix_room_source_admissions')
      .values({
        admission_id: a.admissionId,
        source_id: a.sourceId,
        owner_hash: a.ownerHash,
        profile_id: a.profileId,
        profile_version: a.profileVersion,
        profile_hash: a.profileHash,
        manifest_id: a.manifestId,
        manifest_hash: a.manifestHash,
        producer_epoch_hash: a.producerEpochHash,
        admitted_at: a.admittedAt,
        invalidated_at: a.invalidatedAt,
      })
      .execute();
  },
  async getCurrentAdmission(sourceId) {
    const row = await db
      .selectFrom('helix_room_source_admissions')
      .selectAll()
      .where('source_id', '=', sourceId)
      .where('invalidated_at', 'is', null)
      .orderBy('admitted_at', 'desc')
      .orderBy('admission_id', 'desc')
      .executeTakeFirst();
    return row === undefined ? undefined : admissionFromRow(row);
  },
  async invalidateAdmissions(sourceId, at) {
    const result = await db
      .updateTable('helix_room_source_admissions')
      .set({ invalidated_at: at })
      .where('source_id', '=', sourceId)
      .where('invalidated_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
});

export const roomSourceRepository = (db: Kysely<HelixDatabase>): RoomSourceRepository => ({
  ...sourceRecords(db),
  ...creatorRecords(db),
  ...deliveryRecords(db),
  ...admissionRecords(db),
});
