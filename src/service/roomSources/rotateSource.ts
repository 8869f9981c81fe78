import { type CredentialDeliveryView, projectSource, type SourceView } from '../../api/roomSourceViews.js';
import { requireRoomFeatureFor } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import { issueDelivery } from './credentials.js';
import { loadOwnedSource, sourceNotFound } from './ownedSource.js';

export interface SourceRotated {
  readonly source: SourceView;
  readonly credential_delivery: CredentialDeliveryView;
  readonly bearer_included: false;
}

/**
 * SRC-06: the owner rotates a source's credential. The current bearer stops working at once (its
 * hash is dropped), every admission made under it is invalidated, and a new show-once delivery
 * replaces any open one; the next bearer is minted when that delivery is claimed.
 */
export const rotateSource = async (
  deps: RoomDeps,
  accountId: string,
  sourceId: string,
  roomId?: string,
): Promise<SourceRotated> => {
  await requireRoomFeatureFor(deps, accountId);
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const { source } = await loadOwnedSource(uow, accountId, sourceId, roomId);
    if (source.expiresAt <= now || !(await uow.roomSources.clearCredential(sourceId, now))) throw sourceNotFound();
    await uow.roomSources.invalidateAdmissions(sourceId, now);
    const rotated = { ...source, credentialHash: null, credentialCreatedAt: null, rotatedAt: now };
    const delivery = await issueDelivery(uow, rotated, now);
    return { source: projectSource(rotated, now), credential_delivery: delivery, bearer_included: false as const };
  });
};
