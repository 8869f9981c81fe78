import type { Principal } from '../../auth/principal.js';
import { EMBODIMENT_LIMITS } from '../../domain/embodiment.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { ServiceResult } from '../result.js';
import { loadActingMember } from './embodimentAccess.js';
import { currentSubject } from './liveSubject.js';
import type { SubjectListReceipt, SubjectView } from './subjectViews.js';

/**
 * `helix_environment_subject_list` (MC-01, MC-08): "Your identity in this environment". The room's
 * sanitized subject directory (one player per connector with an action lane, by its opaque
 * `subject_ref` and the source's label) plus the caller's own binding. Any current member may
 * list; a subject held by another member shows as unavailable, never by whom.
 */
export const listSubjects = async (
  deps: RoomDeps,
  principal: Principal,
  roomId: unknown,
): Promise<ServiceResult<SubjectListReceipt>> => {
  const { caller, room } = await loadActingMember(deps, principal, 'environment.subject_list', roomId);
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const subjects: SubjectView[] = [];
    let yours: SubjectListReceipt['your_binding'] = null;
    const sources = await uow.roomSources.listSources(room.roomId, EMBODIMENT_LIMITS.listMax);
    for (const source of sources) {
      const subject = await currentSubject(uow, source, now);
      if (subject === undefined) continue;
      const leased = subject.holderAccountId !== null && (subject.leaseExpiresAt ?? 0) > now;
      const mine = leased && subject.holderAccountId === caller.accountId;
      subjects.push({
        subject_ref: subject.subjectRef,
        environment_binding_id: source.sourceId,
        label: `${source.label} player`,
        held_by_you: mine,
        available: !leased || mine,
      });
      if (mine && yours === null)
        yours = {
          subject_ref: subject.subjectRef,
          environment_binding_id: source.sourceId,
          lease_expires_at: new Date(subject.leaseExpiresAt ?? now).toISOString(),
        };
    }
    const body = {
      operation: 'environment.subject.list' as const,
      room_id: room.roomId,
      subjects,
      your_binding: yours,
    };
    return { status: 200, body, replayed: false };
  });
};
