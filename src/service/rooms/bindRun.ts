import type { Principal } from '../../auth/principal.js';
import { BindRunRequestSchema } from '../../api/roomSchemas.js';
import { runBindReceipt, type RunBindReceipt } from '../../api/roomViews.js';
import { HelixError } from '../../domain/errors.js';
import { isRunTerminal } from '../../domain/run.js';
import { hasAcceptedCurrentConsent, roleMayBindRuns, type RunRoomBindingRecord } from '../../domain/rooms.js';
import type { UnitOfWork } from '../../store/port.js';
import { parseInput } from '../validate.js';
import { admitCaller, loadCallerRoom, type RoomCaller, roomNotFound } from './access.js';
import type { RoomDeps } from './deps.js';
import type { ServiceResult } from '../result.js';
import { newRunRoomBindingRef } from './ids.js';

/**
 * POST /api/v1/rooms/run-bindings (RREST-04, MRT-04): durably binds one owned run to one room.
 * Checks, in order: both scopes and the policy (SLR-11, SLR-13); the run is the caller's (else not
 * found, as for runs); the caller is a current member of the room (else not found, RREST-03), its
 * role may bind (observers may not) and it accepted the room's current consent version (D-09).
 * Then the run's single active slot decides: an exact retry returns the existing binding, an
 * active binding to another room is `room_binding_conflict` (WD-09).
 */
export const bindRun = async (
  deps: RoomDeps,
  principal: Principal,
  body: unknown,
): Promise<ServiceResult<RunBindReceipt>> => {
  const caller = await admitCaller(deps, principal, 'room.bind_run', 'feature_required');
  const request = parseInput(BindRunRequestSchema, body);
  const now = deps.now();
  const outcome = await deps.store.transaction((uow) => bindInTransaction(uow, caller, request, now));
  return { status: outcome.created ? 201 : 200, body: runBindReceipt(outcome.binding), replayed: false };
};

const bindInTransaction = async (
  uow: UnitOfWork,
  caller: RoomCaller,
  request: { readonly room_id: string; readonly run_id: string },
  now: number,
): Promise<{ created: boolean; binding: RunRoomBindingRecord }> => {
  const run = await uow.runs.get(request.run_id);
  if (run === undefined || run.ownerHash !== caller.owner.ownerHash) throw new HelixError('not_found');
  if (isRunTerminal(run)) throw new HelixError('run_not_active', { current_version: run.version });
  // Membership, role and consent are read afresh: a removed, demoted or not-yet-consenting member cannot bind.
  const { room } = await loadCallerRoom(uow.rooms, request.room_id, caller);
  // The member row is locked until this transaction ends, so a concurrent removal or role change
  // either waits and then revokes this binding, or commits first and this bind finds no member
  // (issue 27: a read-then-write let a removed member keep an active binding on PostgreSQL).
  const member = await uow.rooms.lockCurrentMember(room.roomId, caller.accountId);
  if (member === undefined) throw roomNotFound();
  if (!roleMayBindRuns(member.role)) throw new HelixError('room_role_forbidden');
  if (!hasAcceptedCurrentConsent(member, room) || member.consentReceiptRef === null)
    throw new HelixError('room_consent_required');

  // BRE-09: participant, role and consent identity are written in the same row, at once.
  const fresh: RunRoomBindingRecord = {
    bindingRef: newRunRoomBindingRef(),
    runId: run.runId,
    roomId: room.roomId,
    ownerHash: caller.owner.ownerHash,
    accountId: member.accountId,
    role: member.role,
    consentVersion: room.consentVersion,
    consentReceiptRef: member.consentReceiptRef,
    status: 'active',
    createdAt: now,
    revokedAt: null,
  };
  if (await uow.rooms.insertRunBindingIfFree(fresh)) return { created: true, binding: fresh };

  // The slot was taken, possibly by a concurrent bind that committed a moment ago.
  const active = await uow.rooms.getActiveRunBinding(run.runId);
  if (active === undefined) throw new HelixError('store_unavailable', { retry_after_seconds: 1 });
  if (active.roomId !== room.roomId) throw new HelixError('room_binding_conflict');
  return { created: false, binding: active };
};
