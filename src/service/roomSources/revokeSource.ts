import { projectSource, type SourceView } from '../../api/roomSourceViews.js';
import type { RevocationStatus } from '../../domain/rooms.js';
import { requireRoomFeatureFor } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { UnitOfWork } from '../../store/port.js';
import { loadOwnedSource } from './ownedSource.js';

export interface SourceRevoked {
  readonly source: SourceView;
  readonly revocation_status: RevocationStatus;
}

/**
 * SRC-06: the owner revokes a source for good. Its bearer hash is dropped, its admissions are
 * invalidated and its open delivery is closed, in one transaction; a revoked source never becomes
 * active again. Revoking twice answers `already_revoked`, as binding withdrawals do (WD-03).
 */
export const revokeSource = async (
  deps: RoomDeps,
  accountId: string,
  sourceId: string,
  roomId?: string,
): Promise<SourceRevoked> => {
  await requireRoomFeatureFor(deps, accountId);
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const { source } = await loadOwnedSource(uow, accountId, sourceId, roomId);
    const revoked = await endSourceForGood(uow, sourceId, now);
    const after = (await uow.roomSources.getSource(sourceId)) ?? source;
    return { source: projectSource(after, now), revocation_status: revoked ? 'revoked' : 'already_revoked' };
  });
};

/**
 * SRC-06 in the caller's transaction: the source is revoked, its admissions invalidated and its
 * open delivery closed, so its bearer, its action credential and its observations stop at once.
 * Also what removing or demoting the owner who created it does (removeMember, setMemberRole).
 * False when the source was no longer active.
 */
export const endSourceForGood = async (uow: UnitOfWork, sourceId: string, now: number): Promise<boolean> => {
  const revoked = await uow.roomSources.endSource(sourceId, 'revoked', now);
  await uow.roomSources.invalidateAdmissions(sourceId, now);
  await uow.roomSources.closeDeliveries(sourceId, now);
  return revoked;
};
