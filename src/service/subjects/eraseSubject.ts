import { randomBytes } from 'node:crypto';
import { HelixError } from '../../domain/errors.js';
import { sha256Hex } from '../../domain/hashing.js';
import { requireIdempotencyKey } from '../idempotency.js';
import type { ErasureRecord, UnitOfWork } from '../../store/port.js';
import { OWNER_REGISTRATIONS, requireAccountId, scopeOf, subjectKeyOf, totalOf } from './subjectScope.js';
import type { SubjectDeps } from './deps.js';
import { erasureView, type SubjectErasureView } from './subjectViews.js';

export interface EraseRequest {
  readonly accountId: string;
  /** The requesting credential's non-secret id, kept in the audit (`cli` for the command line). */
  readonly requestedBy: string;
  readonly idempotencyKey: string | undefined;
}

type Erased = { readonly erasure: ErasureRecord; readonly replayed: boolean };

const newErasureId = (): string => `era_${randomBytes(16).toString('base64url')}`;

/**
 * `subject.erase`: deletes every row of the subject in one transaction and records the erasure.
 * A repeated key answers its first receipt; an erase of a subject already erased (nothing left,
 * an erasure on record) answers the latest receipt; a subject never seen is `subject_not_found`.
 */
export const eraseSubject = async (
  deps: SubjectDeps,
  request: EraseRequest,
): Promise<{ body: SubjectErasureView; replayed: boolean }> => {
  const accountId = requireAccountId(request.accountId);
  const keyHash = sha256Hex(requireIdempotencyKey(request.idempotencyKey));
  const subjectKey = subjectKeyOf(deps, accountId);
  const now = deps.now();

  const outcome = await deps.store.transaction(async (uow): Promise<Erased> => {
    const previous = await uow.subjects.findErasure(request.requestedBy, keyHash);
    if (previous !== undefined) {
      if (previous.subjectKey !== subjectKey) throw new HelixError('idempotency_conflict');
      return { erasure: previous, replayed: true };
    }
    const records = await eraseRows(deps, uow, accountId, subjectKey, now);
    if (totalOf(records) === 0) {
      const latest = await uow.subjects.latestErasure(subjectKey);
      if (latest === undefined) throw new HelixError('subject_not_found');
      return { erasure: latest, replayed: true };
    }
    const erasure: ErasureRecord = {
      erasureId: (deps.newId ?? newErasureId)(),
      subjectKey,
      requestedBy: request.requestedBy,
      idempotencyKeyHash: keyHash,
      records,
      erasedAt: now,
    };
    await uow.subjects.recordErasure(erasure);
    return { erasure, replayed: false };
  });
  // After commit: the erased rows' older page images leave the SQLite write-ahead log. Repeated on
  // a replay, so a retry after a failure here still gets there.
  await deps.store.truncateLog();
  return { body: erasureView(accountId, outcome.erasure), replayed: outcome.replayed };
};

/**
 * The order matters. Releasing the owner registrations first takes their row locks, so a mutation
 * of one of these owners running concurrently (it upserts its registration) either commits first
 * and is erased here, or waits and registers its owner again afterwards: nothing is left behind
 * unattributed. A turn still in progress would record evidence after the erase: refused, retry.
 */
const eraseRows = async (
  deps: SubjectDeps,
  uow: UnitOfWork,
  accountId: string,
  subjectKey: string,
  now: number,
): Promise<Record<string, number>> => {
  const registered = await uow.subjects.releaseOwners(subjectKey);
  const scope = await scopeOf(deps, uow, accountId, registered);
  if ((await uow.subjects.countTurnsInProgress(scope.ownerHashes, now)) > 0) {
    throw new HelixError(
      'run_busy',
      {},
      'A run of this subject has a turn in progress; retry the erase once it has finished.',
    );
  }
  return { ...(await uow.subjects.erase(scope)), [OWNER_REGISTRATIONS]: registered.length };
};
