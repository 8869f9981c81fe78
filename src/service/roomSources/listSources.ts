import type { Principal } from '../../auth/principal.js';
import { projectSource, type SourceListReceipt, sourceListReceipt } from '../../api/roomSourceViews.js';
import { HelixError } from '../../domain/errors.js';
import { SOURCE_LIMITS } from '../../domain/roomSources.js';
import { admitCaller, loadCallerRoom } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { ServiceResult } from '../result.js';

/**
 * GET /api/v1/rooms/{room_id}/sources (RREST-08, MRT-08, SRC-09): the room's sources, oldest
 * first, at most SOURCE_LIMITS.listMax, never a credential. Owner-only like creation: the list
 * is the owner's source manager.
 */
export const listSources = async (
  deps: RoomDeps,
  principal: Principal,
  roomId: string,
): Promise<ServiceResult<SourceListReceipt>> => {
  const caller = await admitCaller(deps, principal, 'room.source_list', 'feature_required');
  const { member } = await loadCallerRoom(deps.store.read.rooms, roomId, caller);
  if (member.role !== 'owner') throw new HelixError('room_role_forbidden');
  return { status: 200, body: await roomSourceList(deps, roomId), replayed: false };
};

/** The room's sources, oldest first, bounded (SRC-09); the caller has checked it is the owner. */
export const roomSourceList = async (deps: RoomDeps, roomId: string): Promise<SourceListReceipt> => {
  const rows = await deps.store.read.roomSources.listSources(roomId, SOURCE_LIMITS.listMax + 1);
  const now = deps.now();
  const shown = rows.slice(0, SOURCE_LIMITS.listMax).map((source) => projectSource(source, now));
  return sourceListReceipt(roomId, shown, rows.length > SOURCE_LIMITS.listMax);
};
