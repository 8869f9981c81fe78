import type { Principal } from '../../auth/principal.js';
import { unbindReceipt, type UnbindReceipt } from '../../api/roomViews.js';
import { isRunRoomBindingRef } from '../../domain/rooms.js';
import { admitCaller, bindingNotFound } from './access.js';
import type { RoomDeps } from './deps.js';
import type { ServiceResult } from '../result.js';

/**
 * DELETE /api/v1/rooms/run-bindings/{binding_ref} (RREST-05, MRT-06, WD-01..07): withdraws one run-room
 * binding by its opaque ref, matched against the caller's exact owner hash (WD-02). Idempotent
 * (WD-03): `revoked`, then `already_revoked`. The cleanup exception: the policy lock does not
 * block it (WD-05, MRT-11), the scopes and the linked account still apply.
 */
export const unbindRun = async (
  deps: RoomDeps,
  principal: Principal,
  bindingRef: string,
): Promise<ServiceResult<UnbindReceipt>> => {
  const caller = await admitCaller(deps, principal, 'room.unbind_run', 'withdrawal');
  if (!isRunRoomBindingRef(bindingRef)) throw bindingNotFound();
  const outcome = await deps.store.read.rooms.revokeRunBinding(caller.owner.ownerHash, bindingRef, deps.now());
  if (outcome === 'not_found') throw bindingNotFound();
  return { status: 200, body: unbindReceipt('runUnbind', bindingRef, outcome), replayed: false };
};
