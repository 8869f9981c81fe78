/**
 * Room sources (docs/spec/shared-live-room-requirements.md §7 SRC-*, §20; docs/rooms.md "Sources
 * and credential delivery"): a read-only environment source bound to one room, its show-once
 * credential delivery and its adapter admissions. Pure data; storage in src/store/roomSourcePort.ts.
 *
 * Four secrets exist and none is ever stored in clear: the claim handle (in the create response,
 * once), the source bearer and the action credential (both minted when the handle is claimed,
 * shown once) and the producer epoch (sent by the connector). The store holds their SHA-256.
 */

import { ACTION_LANE_ADAPTERS } from './environmentAdapterProfiles.js';

/** SRC-06: a revoked or expired source never becomes active again; rotation keeps it active. */
export const SOURCE_STATUSES = ['active', 'revoked', 'expired'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** The source (binding) id: opaque, server-made; also the `{binding_id}` of the ingress paths. */
export const SOURCE_ID_PATTERN = /^rsb_[0-9a-f]{32}$/;
/** The show-once claim handle of a credential delivery: 32 random bytes, base64url. */
export const DELIVERY_HANDLE_PATTERN = /^hlxdlv_[A-Za-z0-9_-]{43}$/;
/** The source bearer, minted at claim time (SRC-03, SRC-05). */
export const SOURCE_BEARER_PATTERN = /^hlxsrc_[A-Za-z0-9_-]{43}$/;

/**
 * The action credential (M-02, SRC-07): minted with the source bearer for a source whose adapter
 * has an action lane, shown once with it, and accepted only on the action lane
 * (`/api/room-actions/v1/bindings/{binding_id}/…`), as the source bearer is only on the ingress lane.
 */
export const ACTION_CREDENTIAL_PATTERN = /^hlxact_[A-Za-z0-9_-]{43}$/;
export const hasActionLane = (domainAdapter: string): boolean => ACTION_LANE_ADAPTERS.includes(domainAdapter);

export const isSourceId = (value: string): boolean => SOURCE_ID_PATTERN.test(value);

/** RREST-09 body bounds (docs/rooms.md). */
export const SOURCE_LIMITS = {
  labelMaxLength: 120,
  worldIdMaxLength: 200,
  domainAdapterMaxLength: 80,
  /** A source lives a minute to 90 days; its credential expires with it. */
  ttlMs: { min: 60_000, max: 90 * 24 * 3_600_000 },
  /** How long a claim handle can be claimed. */
  deliveryTtlMs: 15 * 60_000,
  /** SRC-09: listing is bounded. */
  listMax: 100,
} as const;

export interface RoomSourceRecord {
  readonly sourceId: string;
  readonly roomId: string;
  readonly domainAdapter: string;
  readonly worldId: string;
  readonly label: string;
  readonly profileId: string;
  readonly profileVersion: number;
  /** The profile's contract hash when the source was created. */
  readonly profileHash: string;
  readonly status: SourceStatus;
  /** SHA-256 of the current bearer; null until a delivery is claimed, and after a rotation. */
  readonly credentialHash: string | null;
  readonly credentialCreatedAt: number | null;
  /** SHA-256 of the current action credential (M-02); set and dropped together with `credentialHash`. */
  readonly actionCredentialHash: string | null;
  /** The source and its credential expire together (`ttl_ms` from creation). */
  readonly expiresAt: number;
  readonly rotatedAt: number | null;
  readonly revokedAt: number | null;
  /** The owner account that created it. */
  readonly createdBy: string;
  readonly ownerHash: string;
  readonly createdAt: number;
}

export interface CredentialDeliveryRecord {
  /** SHA-256 of the show-once claim handle. */
  readonly handleHash: string;
  readonly sourceId: string;
  /** The source's owner hash (subject access). */
  readonly ownerHash: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** Single use: set once by the claim, or when a newer delivery of the source supersedes it. */
  readonly claimedAt: number | null;
  readonly claimedBy: string | null;
}

export interface AdapterAdmissionRecord {
  readonly admissionId: string;
  readonly sourceId: string;
  readonly ownerHash: string;
  readonly profileId: string;
  readonly profileVersion: number;
  readonly profileHash: string;
  readonly manifestId: string;
  readonly manifestHash: string;
  /** SHA-256 of the producer epoch: a new epoch needs a new admission (§22). */
  readonly producerEpochHash: string;
  readonly admittedAt: number;
  /** Rotation, revocation and expiry invalidate admissions (SRC-06). */
  readonly invalidatedAt: number | null;
}

/** A source authorizes only while active, credentialed and unexpired. */
export const sourceIsLive = (source: RoomSourceRecord, now: number): boolean =>
  source.status === 'active' && source.credentialHash !== null && source.expiresAt > now;
