import { HelixError } from '../../domain/errors.js';
import { isSourceId, type RoomSourceRecord } from '../../domain/roomSources.js';
import type { UnitOfWork } from '../../store/port.js';
import { loadRoomAsOwner, type MemberRoom } from '../rooms/access.js';

export const sourceNotFound = (): HelixError => new HelixError('not_found', {}, 'The room source was not found.');

/**
 * The source manager's operations (SRC-06) act as the signed-in account: the source must belong
 * to a room the account currently owns. A malformed id, an unknown source and another room's
 * source read the same: not found. A caller that names the room too (the browser routes' path
 * `/rooms/{roomId}/source-bindings/{bindingId}`) finds only that room's sources.
 */
export const loadOwnedSource = async (
  uow: UnitOfWork,
  accountId: string,
  sourceId: string,
  roomId?: string,
): Promise<MemberRoom & { readonly source: RoomSourceRecord }> => {
  if (!isSourceId(sourceId)) throw sourceNotFound();
  const source = await uow.roomSources.getSource(sourceId);
  if (source === undefined || (roomId !== undefined && source.roomId !== roomId)) throw sourceNotFound();
  const owned = await loadRoomAsOwner(uow.rooms, source.roomId, accountId);
  return { ...owned, source };
};
