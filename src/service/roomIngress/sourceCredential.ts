import { HelixError } from '../../domain/errors.js';
import { isSourceId, type RoomSourceRecord } from '../../domain/roomSources.js';
import { sourceStanding } from '../../domain/sourceStanding.js';
import type { RoomDeps } from '../rooms/deps.js';
import { authenticateSourceBearer, sourceCredentialRefused } from '../roomSources/authenticateSourceBearer.js';
import { endSourceForGood } from '../roomSources/revokeSource.js';

/**
 * Every ingress call starts here (ING-02, SRC-06, SRC-07): the source bearer of exactly this
 * binding, nothing else (an `hlx_` API key, an OAuth token or a session cookie is refused with the
 * same `invalid_token`). A call that finds its source past expiry also ends the source as
 * `expired` and invalidates its admissions, so the stored state says what the bearer check knows.
 *
 * Then the source's standing (src/domain/sourceStanding.ts): a source whose creator is no longer
 * a current owner of the room is revoked now, as its creator's removal or demotion does, and
 * refused like any revoked bearer (`invalid_token`); a source whose creator's account policy has
 * `shared_live_room` off is the policy lock's own refusal (`feature_not_enabled`, SLR-12), and its
 * admissions are invalidated (§22: owner-policy loss), so once the feature is back the producer
 * starts again with a manifest. Both checks follow the bearer's, so a stranger learns neither.
 */
export const authenticateIngressSource = async (
  deps: RoomDeps,
  bindingId: string,
  bearer: string | undefined,
): Promise<RoomSourceRecord> => {
  if (bearer === undefined) throw new HelixError('unauthorized');
  let source: RoomSourceRecord;
  try {
    source = await authenticateSourceBearer(deps, bindingId, bearer);
  } catch (error) {
    await endIfExpired(deps, bindingId);
    throw error;
  }
  await requireStanding(deps, source);
  return source;
};

const requireStanding = async (deps: RoomDeps, source: RoomSourceRecord): Promise<void> => {
  const creator = await deps.store.read.rooms.getMember(source.roomId, source.createdBy);
  const standing = sourceStanding(creator, await deps.policies.forAccount(source.createdBy));
  if (standing === 'authorized') return;
  const now = deps.now();
  if (standing === 'creator_not_owner') {
    await deps.store.transaction((uow) => endSourceForGood(uow, source.sourceId, now));
    throw sourceCredentialRefused();
  }
  await deps.store.transaction((uow) => uow.roomSources.invalidateAdmissions(source.sourceId, now));
  throw new HelixError('feature_not_enabled', { feature: 'shared_live_room' });
};

const endIfExpired = async (deps: RoomDeps, bindingId: string): Promise<void> => {
  if (!isSourceId(bindingId)) return;
  const now = deps.now();
  const source = await deps.store.read.roomSources.getSource(bindingId);
  if (source === undefined || source.status !== 'active' || source.expiresAt > now) return;
  await deps.store.transaction(async (uow) => {
    if (await uow.roomSources.endSource(bindingId, 'expired', now))
      await uow.roomSources.invalidateAdmissions(bindingId, now);
  });
};
