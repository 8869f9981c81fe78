import { randomBytes } from 'node:crypto';
import type { CredentialDeliveryView } from '../../api/roomSourceViews.js';
import { sha256Hex } from '../../domain/hashing.js';
import { type RoomSourceRecord, SOURCE_LIMITS } from '../../domain/roomSources.js';
import type { UnitOfWork } from '../../store/port.js';

/**
 * The source's server-made identifiers and secrets (formats in src/domain/roomSources.ts). The
 * claim handle and the bearer leave the server once, in one response; the store keeps their
 * SHA-256, hashed like `hlx_` API keys (src/auth/apiKeys.ts).
 */
export const newSourceId = (): string => `rsb_${randomBytes(16).toString('hex')}`;
export const newSourceBearer = (): string => `hlxsrc_${randomBytes(32).toString('base64url')}`;
/** M-02: the action lane's own credential, never the source bearer. */
export const newActionCredential = (): string => `hlxact_${randomBytes(32).toString('base64url')}`;
const newDeliveryHandle = (): string => `hlxdlv_${randomBytes(32).toString('base64url')}`;

export const hashSourceSecret = (secret: string): string => sha256Hex(secret);

/**
 * Where the signed-in developer owner claims the delivery (SRC-04): a console path on this
 * server's origin. The handle rides in the fragment, which a browser never sends, so it reaches
 * no request log, proxy log or Referer (as invite links do).
 */
export const CLAIM_PATH = '/account/room-sources/claim';

/**
 * Opens the source's one claimable delivery: every earlier open delivery of the source is closed
 * first, so at most one handle can ever be claimed. The delivery never outlives the source.
 */
export const issueDelivery = async (
  uow: UnitOfWork,
  source: RoomSourceRecord,
  now: number,
): Promise<CredentialDeliveryView> => {
  await uow.roomSources.closeDeliveries(source.sourceId, now);
  const handle = newDeliveryHandle();
  const expiresAt = Math.min(now + SOURCE_LIMITS.deliveryTtlMs, source.expiresAt);
  await uow.roomSources.insertDelivery({
    handleHash: hashSourceSecret(handle),
    sourceId: source.sourceId,
    ownerHash: source.ownerHash,
    createdAt: now,
    expiresAt,
    claimedAt: null,
    claimedBy: null,
  });
  return { claim_handle: handle, claim_url: `${CLAIM_PATH}#${handle}`, expires_at: new Date(expiresAt).toISOString() };
};
