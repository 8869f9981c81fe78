import { hasFeature } from '../../domain/accountPolicy.js';
import {
  isObserverBindingRef,
  type ObserverBindingRecord,
  type ObserverBindingStatus,
  observerStatusAt,
} from '../../domain/chats.js';
import { HelixError } from '../../domain/errors.js';
import type { ChatDeps } from './deps.js';

export const observerNotFound = (): HelixError =>
  new HelixError('not_found', {}, 'The observer binding was not found.');

/**
 * SLR-11: while the account policy locks the Shared Live Room feature, observer creation,
 * inspection, polling and terminal projection stay blocked; only disconnect is exempt (WD-06).
 */
export const requireObserverFeature = async (deps: ChatDeps, accountId: string): Promise<void> => {
  if (!hasFeature(await deps.policies.forAccount(accountId), 'shared_live_room'))
    throw new HelixError('feature_not_enabled', { feature: 'shared_live_room' });
};

/** OBS-12: the account's own binding; a malformed ref and another account's read "not found". */
export const loadObserverBinding = async (
  deps: ChatDeps,
  accountId: string,
  bindingRef: string,
): Promise<ObserverBindingRecord> => {
  if (!isObserverBindingRef(bindingRef)) throw observerNotFound();
  const binding = await deps.store.read.chats.getObserverBinding(bindingRef, accountId);
  if (binding === undefined) throw observerNotFound();
  return binding;
};

/**
 * What the browser sees: `expired` for an unclaimed handle past its expiry, and `revoked` once the
 * agent withdrew the run-chat binding the claim created (RREST-07), even before the browser polls.
 */
export const observerStatus = async (
  deps: ChatDeps,
  binding: ObserverBindingRecord,
): Promise<ObserverBindingStatus> => {
  const status = observerStatusAt(binding, deps.now());
  if (status !== 'active' || binding.runChatBindingRef === null) return status;
  const chatBinding = await deps.store.read.rooms.getChatBinding(binding.runChatBindingRef);
  return chatBinding?.status === 'active' ? 'active' : 'revoked';
};
