import type { RoomSourceRecord } from '../domain/roomSources.js';
import { NON_AUTHORITY_FLAGS } from './flags.js';

/**
 * Room source receipts (docs/rooms.md "Sources and credential delivery"). None holds a bearer,
 * a credential hash or plugin configuration (SRC-02, SRC-03, SRC-09); a source is read-only
 * (SRC-08: `execution_enabled: false`).
 */
export const SOURCE_RECEIPT_SCHEMAS = {
  list: 'helix.shared_live_room.source_list_receipt.v1',
  // [impl]: §22 names no creation receipt.
  create: 'helix.shared_live_room.source_create_receipt.v1',
} as const;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** `expired` once the lifetime ran out even before anything marked the row; `pending_claim` until a delivery is claimed. */
const effectiveStatus = (source: RoomSourceRecord, now: number) =>
  source.status === 'active' && source.expiresAt <= now ? 'expired' : source.status;

export const projectSource = (source: RoomSourceRecord, now: number) => {
  const status = effectiveStatus(source, now);
  return {
    source_id: source.sourceId,
    room_id: source.roomId,
    domain_adapter: source.domainAdapter,
    world_id: source.worldId,
    source_label: source.label,
    status,
    credential_status:
      status !== 'active' ? ('none' as const) : source.credentialHash === null ? 'pending_claim' : ('issued' as const),
    adapter_profile: {
      profile_id: source.profileId,
      profile_version: source.profileVersion,
      contract_hash: source.profileHash,
    },
    created_at: iso(source.createdAt),
    expires_at: iso(source.expiresAt),
    rotated_at: iso(source.rotatedAt),
    revoked_at: iso(source.revokedAt),
    execution_enabled: false as const,
  };
};
export type SourceView = ReturnType<typeof projectSource>;

/** SRC-01: only an opaque handle, the claim URL and the expiry. */
export interface CredentialDeliveryView {
  readonly claim_handle: string;
  readonly claim_url: string;
  readonly expires_at: string;
}

export const sourceCreateReceipt = (source: SourceView, delivery: CredentialDeliveryView | null) => ({
  schema: SOURCE_RECEIPT_SCHEMAS.create,
  source,
  credential_delivery: delivery,
  bearer_included: false as const,
  plugin_config_included: false as const,
  ...NON_AUTHORITY_FLAGS,
});
export type SourceCreateReceipt = ReturnType<typeof sourceCreateReceipt>;

export const sourceListReceipt = (roomId: string, sources: readonly SourceView[], truncated: boolean) => ({
  schema: SOURCE_RECEIPT_SCHEMAS.list,
  room_id: roomId,
  sources,
  truncated,
  ...NON_AUTHORITY_FLAGS,
});
export type SourceListReceipt = ReturnType<typeof sourceListReceipt>;
