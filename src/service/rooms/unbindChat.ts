import type { Principal } from '../../auth/principal.js';
import { unbindReceipt, type UnbindReceipt } from '../../api/roomViews.js';
import { isRunChatBindingRef } from '../../domain/rooms.js';
import { admitCaller, bindingNotFound } from './access.js';
import type { RoomDeps } from './deps.js';
import type { ServiceResult } from '../result.js';

/**
 * DELETE /api/v1/rooms/chat-bindings/{binding_ref} (RREST-07, MRT-07, WD-01..07): withdraws one
 * claimed run-chat binding by opaque ref, exactly like a run-room binding (see unbindRun.ts).
 */
export const unbindChat = async (
  deps: RoomDeps,
  principal: Principal,
  bindingRef: string,
): Promise<ServiceResult<UnbindReceipt>> => {
  const caller = await admitCaller(deps, principal, 'room.unbind_chat', 'withdrawal');
  if (!isRunChatBindingRef(bindingRef)) throw bindingNotFound();
  const outcome = await deps.store.read.rooms.revokeChatBinding(caller.owner.ownerHash, bindingRef, deps.now());
  if (outcome === 'not_found') throw bindingNotFound();
  return { status: 200, body: unbindReceipt('chatBindingUnbind', bindingRef, outcome), replayed: false };
};
