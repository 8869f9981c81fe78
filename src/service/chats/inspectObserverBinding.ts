import { type ObserverBindingView, observerBindingView } from '../../api/chatViews.js';
import type { ChatDeps } from './deps.js';
import { loadObserverBinding, observerStatus, requireObserverFeature } from './observerAccess.js';

/** GET /api/agi/agent-run-observer/bindings/{binding_ref} (OBS-12): the account's own binding, while unlocked (SLR-11). */
export const inspectObserverBinding = async (
  deps: ChatDeps,
  accountId: string,
  bindingRef: string,
): Promise<ObserverBindingView> => {
  await requireObserverFeature(deps, accountId);
  const binding = await loadObserverBinding(deps, accountId, bindingRef);
  return observerBindingView(binding, await observerStatus(deps, binding));
};
