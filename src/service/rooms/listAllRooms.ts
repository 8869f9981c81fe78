import type { RoomStatus } from '../../domain/rooms.js';
import type { RoomDeps } from './deps.js';

export interface OperatorRoomRow {
  readonly room_id: string;
  readonly title: string;
  readonly status: RoomStatus;
  readonly owner_account_id: string;
  readonly consent_version: number;
  readonly members: number;
  readonly created_at: string;
}

/**
 * The operator's `helix rooms list` without `--account` (D-09): every room with its creator and
 * how many current members it has. Whoever runs the CLI holds the database, so no policy applies;
 * tenants stay hashed and are not shown.
 */
export const listAllRooms = async (deps: Pick<RoomDeps, 'store'>): Promise<OperatorRoomRow[]> => {
  const rooms = await deps.store.read.rooms.listAllRooms();
  const rows: OperatorRoomRow[] = [];
  for (const room of rooms) {
    const members = await deps.store.read.rooms.listMembers(room.roomId);
    rows.push({
      room_id: room.roomId,
      title: room.title,
      status: room.status,
      owner_account_id: room.ownerAccountId,
      consent_version: room.consentVersion,
      members: members.filter((m) => m.removedAt === null).length,
      created_at: new Date(room.createdAt).toISOString(),
    });
  }
  return rows;
};
