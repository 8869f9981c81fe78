import { observerDisconnectReceipt } from '../../api/chatViews.js';
import { isObserverBindingRef } from '../../domain/chats.js';
import type { ChatDeps } from './deps.js';
import { observerNotFound } from './observerAccess.js';

/**
 * DELETE /api/agi/agent-run-observer/bindings/{binding_ref} (OBS-12, WD-06, WD-07): the browser
 * disconnects its own binding, also after the policy lock (the cleanup exception). The run-chat
 * binding its claim created closes with it, in the same transaction, so the run can no longer
 * write into the chat; both stay revoked for good, and a fresh claim gets new refs (WD-08).
 * Idempotent: `revoked`, then `already_revoked`.
 */
export const disconnectObserver = async (deps: ChatDeps, accountId: string, bindingRef: string) => {
  if (!isObserverBindingRef(bindingRef)) throw observerNotFound();
  const now = deps.now();
  const outcome = await deps.store.transaction(async (uow) => {
    // Revoke first: the update waits for a claim of this binding in flight (PostgreSQL row lock),
    // so the read after it sees the run-chat binding that claim made, and that closes too.
    const status = await uow.chats.revokeObserverBinding(bindingRef, accountId, now);
    if (status === 'not_found') return status;
    const binding = await uow.chats.getObserverBinding(bindingRef, accountId);
    const chatBinding =
      binding?.runChatBindingRef == null ? undefined : await uow.rooms.getChatBinding(binding.runChatBindingRef);
    if (chatBinding !== undefined)
      await uow.rooms.revokeChatBinding(chatBinding.ownerHash, chatBinding.bindingRef, now);
    return status;
  });
  if (outcome === 'not_found') throw observerNotFound();
  return observerDisconnectReceipt(bindingRef, outcome);
};
