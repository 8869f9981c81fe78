import { ownershipOf, type Ownership, type Principal } from '../../auth/principal.js';
import { hasFeature } from '../../domain/accountPolicy.js';
import { HelixError } from '../../domain/errors.js';
import { tenantHash } from '../../domain/identityHashes.js';
import { isCurrentMember, isRoomId, type RoomMemberRecord, type RoomRecord } from '../../domain/rooms.js';
import { requireScopes, type RoomOperation } from '../../domain/scopes.js';
import type { RoomRepository } from '../../store/roomPort.js';
import type { RoomDeps } from './deps.js';

/** The verified caller of a room operation, every field derived from the principal (SLR-06, WD-02). */
export interface RoomCaller {
  readonly owner: Ownership;
  /** The linked Helix account: the membership key, together with the tenant. */
  readonly accountId: string;
  readonly tenantHash: string;
}

export const roomNotFound = (): HelixError => new HelixError('not_found', {}, 'The room was not found.');
export const bindingNotFound = (): HelixError => new HelixError('not_found', {}, 'The binding was not found.');

const requireRoomFeature = async (policy: Promise<Parameters<typeof hasFeature>[0]>): Promise<void> => {
  // SLR-11/SLR-12: the policy lock is its own refusal, never dressed up as a scope failure.
  if (!hasFeature(await policy, 'shared_live_room'))
    throw new HelixError('feature_not_enabled', { feature: 'shared_live_room' });
};

/**
 * The preamble of every agent-facing room operation, in order: every declared scope (SLR-13), a
 * linked Helix account (SLR-01: membership is an account's), then the current account policy
 * (SLR-11) unless the operation is a withdrawal, the cleanup exception (WD-05, MRT-11), or a stop
 * of a player workflow, the safety exception (MC-12, M-03: ../embodiment/emergencyStop.ts).
 */
export const admitCaller = async (
  deps: RoomDeps,
  principal: Principal,
  operation: RoomOperation,
  policy: 'feature_required' | 'withdrawal' | 'safety_stop',
): Promise<RoomCaller> => {
  requireScopes(principal.scopes, operation);
  if (!principal.linkedAccount) throw new HelixError('account_not_linked');
  if (policy === 'feature_required') await requireRoomFeature(deps.policies.forPrincipal(principal));
  return {
    owner: ownershipOf(principal, deps.instanceSecret),
    accountId: principal.accountId,
    tenantHash: tenantHash(deps.instanceSecret, principal.tenantId),
  };
};

/** Console/CLI operations (D-09) act as an account; the same policy lock applies to it. */
export const requireRoomFeatureFor = (deps: RoomDeps, accountId: string): Promise<void> =>
  requireRoomFeature(deps.policies.forAccount(accountId));

export interface MemberRoom {
  readonly room: RoomRecord;
  readonly member: RoomMemberRecord;
}

/**
 * RREST-03: a room is visible only to a current member of its tenant. A malformed id, an unknown
 * room, another tenant's room and a room the account is not (or no longer) a member of all read
 * the same: not found.
 */
export const loadMemberRoom = async (
  rooms: RoomRepository,
  roomId: string,
  accountId: string,
  tenant: string | null,
): Promise<MemberRoom> => {
  if (!isRoomId(roomId)) throw roomNotFound();
  const room = await rooms.getRoom(roomId);
  if (room === undefined || (tenant !== null && room.tenantHash !== tenant)) throw roomNotFound();
  const member = await rooms.getMember(roomId, accountId);
  if (!isCurrentMember(member)) throw roomNotFound();
  return { room, member };
};

/** The caller's room: its own tenant's, and only as a current member. */
export const loadCallerRoom = (rooms: RoomRepository, roomId: string, caller: RoomCaller): Promise<MemberRoom> =>
  loadMemberRoom(rooms, roomId, caller.accountId, caller.tenantHash);

/** Console/CLI (D-09): the acting account's room; owner-only operations refuse other roles. */
export const loadRoomAsOwner = async (
  rooms: RoomRepository,
  roomId: string,
  accountId: string,
): Promise<MemberRoom> => {
  const found = await loadMemberRoom(rooms, roomId, accountId, null);
  if (found.member.role !== 'owner') throw new HelixError('room_role_forbidden');
  return found;
};

export const memberNotFound = (): HelixError => new HelixError('not_found', {}, 'The room member was not found.');

/** The room's creator stays an owner member: a room always has someone who can manage it. */
export const creatorStaysOwner = (): HelixError =>
  new HelixError('room_role_forbidden', {}, "The room's creator stays its owner and member.");
