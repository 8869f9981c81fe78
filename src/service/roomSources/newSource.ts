import type { CreateSourceRequest } from '../../api/roomSourceSchemas.js';
import type { ResolvedAdapterProfile } from '../../domain/environmentAdapterRegistry.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import { newSourceId } from './credentials.js';

/** Who creates the source: the owner account and the owner hash its rows are attributed to. */
export interface SourceCreator {
  readonly roomId: string;
  readonly accountId: string;
  readonly ownerHash: string;
}

/**
 * A new active source as both creators store it (RREST-09 by an agent, the console by the owner):
 * no credential yet (SRC-03, it is minted at claim time), pinned to the profile the registry
 * resolved now, expiring `ttl_ms` from now.
 */
export const newSourceRecord = (
  request: CreateSourceRequest,
  resolved: ResolvedAdapterProfile,
  creator: SourceCreator,
  now: number,
): RoomSourceRecord => ({
  sourceId: newSourceId(),
  roomId: creator.roomId,
  domainAdapter: request.domain_adapter,
  worldId: request.world_id,
  label: request.source_label,
  profileId: resolved.profile.profile_id,
  profileVersion: resolved.profile.profile_version,
  profileHash: resolved.contractHash,
  status: 'active',
  credentialHash: null,
  credentialCreatedAt: null,
  actionCredentialHash: null,
  expiresAt: now + request.ttl_ms,
  rotatedAt: null,
  revokedAt: null,
  createdBy: creator.accountId,
  ownerHash: creator.ownerHash,
  createdAt: now,
});
