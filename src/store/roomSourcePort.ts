import type { AdapterAdmissionRecord, CredentialDeliveryRecord, RoomSourceRecord } from '../domain/roomSources.js';

/** What a claim stores: the source bearer's hash, and the action credential's where the adapter has an action lane. */
export interface SourceCredentialHashes {
  readonly credentialHash: string;
  readonly actionCredentialHash: string | null;
}

/**
 * Room sources in the storage port (UnitOfWork.roomSources; docs/rooms.md "Sources and credential
 * delivery"). Every state change is one conditional UPDATE, so of two concurrent claims, rotations
 * or revocations exactly one changes the row.
 */
export interface RoomSourceRepository {
  insertSource(source: RoomSourceRecord): Promise<void>;
  getSource(sourceId: string): Promise<RoomSourceRecord | undefined>;
  /** The room's sources, oldest first, at most `limit` (SRC-09). */
  listSources(roomId: string, limit: number): Promise<RoomSourceRecord[]>;
  /** The active sources the account created in the room (SRC-06: they end when its ownership does). */
  listActiveSourcesOf(roomId: string, accountId: string): Promise<RoomSourceRecord[]>;
  /** Sets the bearer and action credential hashes of an active source that has no bearer (a claim); false otherwise. */
  setCredential(sourceId: string, hashes: SourceCredentialHashes, at: number): Promise<boolean>;
  /** Rotation: drops the current bearer and action credential hashes of an active source; false when not active. */
  clearCredential(sourceId: string, at: number): Promise<boolean>;
  /** Moves an active source to `revoked` or `expired` and drops both credential hashes; false when not active. */
  endSource(sourceId: string, status: 'revoked' | 'expired', at: number): Promise<boolean>;

  insertDelivery(delivery: CredentialDeliveryRecord): Promise<void>;
  getDelivery(handleHash: string): Promise<CredentialDeliveryRecord | undefined>;
  /** Uses an unexpired, unclaimed delivery exactly once; undefined when unknown, expired or used. */
  claimDelivery(handleHash: string, accountId: string, at: number): Promise<CredentialDeliveryRecord | undefined>;
  /** Closes every open delivery of the source (a newer one supersedes them); returns how many. */
  closeDeliveries(sourceId: string, at: number): Promise<number>;

  insertAdmission(admission: AdapterAdmissionRecord): Promise<void>;
  getCurrentAdmission(sourceId: string): Promise<AdapterAdmissionRecord | undefined>;
  /** SRC-06: rotation, revocation and expiry invalidate every current admission; returns how many. */
  invalidateAdmissions(sourceId: string, at: number): Promise<number>;
}
