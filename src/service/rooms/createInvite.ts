import { RoomRoleSchema } from '../../api/roomSchemas.js';
import { HelixError } from '../../domain/errors.js';
import { sha256Hex } from '../../domain/hashing.js';
import { INVITE_TTL_MS, type RoomRole } from '../../domain/rooms.js';
import { parseInput } from '../validate.js';
import { loadRoomAsOwner, requireRoomFeatureFor } from './access.js';
import type { RoomDeps } from './deps.js';
import { newInviteRef, newInviteToken } from './ids.js';

export interface InviteIssued {
  /** Shown once: only its SHA-256 is stored, so it cannot be shown again. */
  readonly token: string;
  /** What the owner lists and revokes it by (listInvites, revokeInvite); not the token. */
  readonly invite_ref: string;
  readonly room_id: string;
  readonly role: RoomRole;
  readonly expires_at: string;
}

/**
 * Console/CLI (D-09): an owner invites through a single-use, expiring link. The lifetime is
 * bounded (INVITE_TTL_MS: a minute to a week, a day by default).
 */
export const createInvite = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
  options: { readonly role: string; readonly ttlMs?: number },
): Promise<InviteIssued> => {
  await requireRoomFeatureFor(deps, accountId);
  const role = parseInput(RoomRoleSchema, options.role);
  const ttlMs = options.ttlMs ?? INVITE_TTL_MS.default;
  if (!Number.isInteger(ttlMs) || ttlMs < INVITE_TTL_MS.min || ttlMs > INVITE_TTL_MS.max)
    throw new HelixError('invalid_request', {
      issues: [{ path: 'ttl_ms', message: `must be ${INVITE_TTL_MS.min}-${INVITE_TTL_MS.max} milliseconds` }],
    });
  const token = newInviteToken();
  const inviteRef = newInviteRef();
  const now = deps.now();
  await deps.store.transaction(async (uow) => {
    await loadRoomAsOwner(uow.rooms, roomId, accountId);
    await uow.rooms.insertInvite({
      tokenHash: sha256Hex(token),
      inviteRef,
      roomId,
      role,
      createdBy: accountId,
      createdAt: now,
      expiresAt: now + ttlMs,
      usedAt: null,
      usedBy: null,
      revokedAt: null,
    });
  });
  return { token, invite_ref: inviteRef, room_id: roomId, role, expires_at: new Date(now + ttlMs).toISOString() };
};
