import type { Principal } from '../../auth/principal.js';
import { EMBODIMENT_LIMITS } from '../../domain/embodiment.js';
import { HelixError } from '../../domain/errors.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { ServiceResult } from '../result.js';
import { loadActingMember, requireActor, stringArg } from './embodimentAccess.js';
import { currentSubject, requireConnector } from './liveSubject.js';
import type { SubjectSelectReceipt } from './subjectViews.js';

const subjectNotFound = (): HelixError => new HelixError('not_found', {}, 'The environment subject was not found.');

/**
 * `helix_environment_subject_select` (MC-02, MC-09): binds the calling member, and only it, to the
 * subject named by an exact, fresh `subject_ref` of a live connector of this room: the ref is
 * re-derived from the connector's newest snapshot, so a stale or invented ref is not found. One
 * member per subject: the binding is an expiring lease (renewed by each accepted action), and a
 * subject another member holds is `environment_subject_conflict`. Selecting again renews.
 */
export const selectSubject = async (
  deps: RoomDeps,
  principal: Principal,
  args: Readonly<Record<string, unknown>>,
): Promise<ServiceResult<SubjectSelectReceipt>> => {
  const acting = await loadActingMember(deps, principal, 'environment.subject_select', args.room_id);
  requireActor(acting);
  const bindingId = stringArg(args.environment_binding_id, 'environment_binding_id');
  const subjectRef = stringArg(args.subject_ref, 'subject_ref');
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const source = await uow.roomSources.getSource(bindingId);
    if (source === undefined || source.roomId !== acting.room.roomId) throw subjectNotFound();
    const fresh = await currentSubject(uow, source, now);
    if (fresh === undefined || fresh.subjectRef !== subjectRef) throw subjectNotFound();
    await requireConnector(deps, uow, source, now);
    const expiresAt = now + EMBODIMENT_LIMITS.leaseMs;
    if (!(await uow.embodiment.takeLease(subjectRef, acting.caller.accountId, now, expiresAt)))
      throw new HelixError('environment_subject_conflict');
    const body = {
      operation: 'environment.subject.select' as const,
      room_id: acting.room.roomId,
      environment_binding_id: source.sourceId,
      subject_ref: subjectRef,
      lease_expires_at: new Date(expiresAt).toISOString(),
    };
    return { status: 200, body, replayed: false };
  });
};
