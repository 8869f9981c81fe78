import { HelixError } from '../../domain/errors.js';
import { isSourceId, type RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../rooms/deps.js';
import { authenticateSourceBearer } from '../roomSources/authenticateSourceBearer.js';

/**
 * Every ingress call starts here (ING-02, SRC-06, SRC-07): the source bearer of exactly this
 * binding, nothing else (an `hlx_` API key, an OAuth token or a session cookie is refused with the
 * same `invalid_token`). A call that finds its source past expiry also ends the source as
 * `expired` and invalidates its admissions, so the stored state says what the bearer check knows.
 */
export const authenticateIngressSource = async (
  deps: RoomDeps,
  bindingId: string,
  bearer: string | undefined,
): Promise<RoomSourceRecord> => {
  if (bearer === undefined) throw new HelixError('unauthorized');
  try {
    return await authenticateSourceBearer(deps, bindingId, bearer);
  } catch (error) {
    await endIfExpired(deps, bindingId);
    throw error;
  }
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
