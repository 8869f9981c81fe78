import { projectMember, projectRoom, type MemberView, type RoomView } from '../../api/roomViews.js';
import { HelixError } from '../../domain/errors.js';
import { loadMemberRoom, requireRoomFeatureFor } from './access.js';
import type { RoomDeps } from './deps.js';

export interface RoomOverview {
  /** The room with the viewer's own membership (role, accepted version, whether it is current). */
  readonly room: RoomView;
  /** The account that created the room: it stays an owner member, so no one manages its membership. */
  readonly creator_account_id: string;
  /** The text of the current consent version, which the viewer accepts by naming its version. */
  readonly consent: { readonly version: number; readonly text: string };
  /** Current members only; removed members stay in the store (listMembers shows them). */
  readonly members: MemberView[];
}

/**
 * The console's room page (D-09): what a current member sees of one room. Anyone else, another
 * account or a removed member, gets not found (RREST-03), as for every room operation.
 */
export const roomOverview = async (deps: RoomDeps, accountId: string, roomId: string): Promise<RoomOverview> => {
  await requireRoomFeatureFor(deps, accountId);
  const rooms = deps.store.read.rooms;
  const { room, member } = await loadMemberRoom(rooms, roomId, accountId, null);
  const consent = await rooms.getConsentVersion(roomId, room.consentVersion);
  if (consent === undefined) throw new HelixError('internal_error');
  const members = (await rooms.listMembers(roomId)).filter((m) => m.removedAt === null);
  return {
    room: projectRoom(room, member),
    creator_account_id: room.ownerAccountId,
    consent: { version: consent.version, text: consent.text },
    members: members.map(projectMember),
  };
};
