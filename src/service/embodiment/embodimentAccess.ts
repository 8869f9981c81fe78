import type { Principal } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import {
  hasAcceptedCurrentConsent,
  roleMayBindRuns,
  type RoomMemberRecord,
  type RoomRecord,
} from '../../domain/rooms.js';
import type { RoomOperation } from '../../domain/scopes.js';
import { admitCaller, loadCallerRoom, type RoomCaller } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';

export interface ActingMember {
  readonly caller: RoomCaller;
  readonly room: RoomRecord;
  readonly member: RoomMemberRecord;
}

/** A required string argument; anything else is `invalid_request` (the catalog checked JSON types only). */
export const stringArg = (value: unknown, name: string): string => {
  if (typeof value === 'string') return value;
  throw new HelixError('invalid_request', { issues: [{ path: name, message: 'required' }] });
};

/** The scopes, the account policy, then the room as a current member (any other room is not found: RREST-03). */
export const loadActingMember = async (
  deps: RoomDeps,
  principal: Principal,
  operation: RoomOperation,
  roomId: unknown,
): Promise<ActingMember> => {
  const caller = await admitCaller(deps, principal, operation, 'feature_required');
  const { room, member } = await loadCallerRoom(deps.store.read.rooms, stringArg(roomId, 'room_id'), caller);
  return { caller, room, member };
};

/**
 * MC-09, MC-12: acting in the world needs what binding a run needs, read afresh on every call: an
 * active room, a role that may act (an observer only watches) and the room's current consent.
 */
export const requireActor = ({ room, member }: ActingMember): void => {
  if (room.status !== 'active') throw new HelixError('not_found', {}, 'The room was not found.');
  if (!roleMayBindRuns(member.role)) throw new HelixError('room_role_forbidden');
  if (!hasAcceptedCurrentConsent(member, room)) throw new HelixError('room_consent_required');
};
