import type { Principal } from '../../auth/principal.js';
import { CreateSourceRequestSchema } from '../../api/roomSourceSchemas.js';
import { projectSource, type SourceCreateReceipt, sourceCreateReceipt } from '../../api/roomSourceViews.js';
import { HelixError } from '../../domain/errors.js';
import type { UnitOfWork } from '../../store/port.js';
import {
  answerUsedKey,
  completeReceipt,
  idempotentRequest,
  requireIdempotencyKey,
  reserveKey,
} from '../idempotency.js';
import { admitCaller, loadCallerRoom } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { ServiceResult } from '../result.js';
import { parseInput } from '../validate.js';
import { issueDelivery } from './credentials.js';
import { newSourceRecord } from './newSource.js';

/**
 * POST /api/v1/rooms/{room_id}/sources (RREST-09, MRT-09): a read-only source of the room and a
 * deferred credential delivery. Only the room's owner creates sources: a source feeds every
 * member's bound runs, which is a decision about the room, not about one member's runs.
 *
 * SRC-03: no bearer exists yet; it is minted when the delivery is claimed. The claim handle is
 * show-once too, so the idempotency receipt stores the answer WITHOUT it (`credential_delivery:
 * null`). A replay re-issues: while the source is active and unclaimed, it closes the earlier
 * handle and answers a fresh one (the same caller lost the first answer); once claimed, rotated
 * to a new owner's hands or ended, the replay answers `credential_delivery: null`.
 */
export const createSource = async (
  deps: RoomDeps,
  principal: Principal,
  roomId: string,
  idempotencyKey: string | undefined,
  body: unknown,
): Promise<ServiceResult<SourceCreateReceipt>> => {
  const caller = await admitCaller(deps, principal, 'room.source_create', 'feature_required');
  const { member } = await loadCallerRoom(deps.store.read.rooms, roomId, caller);
  if (member.role !== 'owner') throw new HelixError('room_role_forbidden');
  const key = requireIdempotencyKey(idempotencyKey);
  const request = parseInput(CreateSourceRequestSchema, body);
  const resolved = deps.adapters.resolve(request.domain_adapter, request.world_id);
  const idem = idempotentRequest(caller.owner, 'room.source_create', key, null, { room_id: roomId, ...request });
  const now = deps.now();

  return deps.store.transaction(async (uow) => {
    const reservation = await reserveKey(uow, idem, { now, ttlMs: deps.receiptTtlMs, lease: null, runId: null });
    if (reservation.kind !== 'reserved') {
      const replay = answerUsedKey<SourceCreateReceipt>(reservation);
      return { ...replay, body: await replayDelivery(uow, replay.body, now) };
    }
    const source = newSourceRecord(
      request,
      resolved,
      { roomId, accountId: caller.accountId, ownerHash: caller.owner.ownerHash },
      now,
    );
    await uow.roomSources.insertSource(source);
    const delivery = await issueDelivery(uow, source, now);
    const receipt = sourceCreateReceipt(projectSource(source, now), null);
    await completeReceipt(uow, idem, 201, receipt, null);
    return { status: 201, body: { ...receipt, credential_delivery: delivery }, replayed: false };
  });
};

/** The stored receipt, with a fresh handle only while the source can still be claimed. */
const replayDelivery = async (
  uow: UnitOfWork,
  stored: SourceCreateReceipt,
  now: number,
): Promise<SourceCreateReceipt> => {
  const source = await uow.roomSources.getSource(stored.source.source_id);
  if (source === undefined) return stored;
  const view = projectSource(source, now);
  const claimable = view.status === 'active' && source.credentialHash === null && source.rotatedAt === null;
  return { ...stored, source: view, credential_delivery: claimable ? await issueDelivery(uow, source, now) : null };
};
