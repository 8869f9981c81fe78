import type { Principal } from '../../auth/principal.js';
import { CreateRoomRequestSchema } from '../../api/roomSchemas.js';
import { projectRoom, roomReceipt, type RoomReceipt } from '../../api/roomViews.js';
import {
  answerUsedKey,
  completeReceipt,
  idempotentRequest,
  requireIdempotencyKey,
  reserveKey,
} from '../idempotency.js';
import { parseInput } from '../validate.js';
import { admitCaller } from './access.js';
import type { RoomDeps } from './deps.js';
import type { ServiceResult } from '../result.js';
import { insertNewRoom } from './newRoom.js';

/**
 * POST /api/v1/rooms (RREST-02, MRT-03): creates a room owned by the caller's linked account.
 * SLR-03: idempotent by Idempotency-Key (8-200), scoped by owner and operation: the same key and
 * body replays the first receipt, another body under the key is `idempotency_conflict`. The key
 * is reserved in the room's own transaction, so a receipt never outlives a rolled-back room.
 */
export const createRoom = async (
  deps: RoomDeps,
  principal: Principal,
  idempotencyKey: string | undefined,
  body: unknown,
): Promise<ServiceResult<RoomReceipt>> => {
  const caller = await admitCaller(deps, principal, 'room.create', 'feature_required');
  const key = requireIdempotencyKey(idempotencyKey);
  const request = parseInput(CreateRoomRequestSchema, body);
  const idem = idempotentRequest(caller.owner, 'room.create', key, null, request);
  const now = deps.now();

  const outcome = await deps.store.transaction(async (uow) => {
    const reservation = await reserveKey(uow, idem, { now, ttlMs: deps.receiptTtlMs, lease: null, runId: null });
    if (reservation.kind !== 'reserved') return reservation;
    const { room, member } = await insertNewRoom(uow, {
      title: request.title,
      ownerAccountId: caller.accountId,
      tenantHash: caller.tenantHash,
      ownerHash: caller.owner.ownerHash,
      now,
    });
    const receipt = roomReceipt('create', projectRoom(room, member));
    await completeReceipt(uow, idem, 201, receipt, null);
    return { kind: 'done' as const, receipt };
  });
  if (outcome.kind === 'done') return { status: 201, body: outcome.receipt, replayed: false };
  return answerUsedKey<RoomReceipt>(outcome);
};
