import { type ObserverEventPage, observerEventPage } from '../../api/chatViews.js';
import { ObserverEventsQuerySchema } from '../../api/chatSchemas.js';
import { HelixError } from '../../domain/errors.js';
import { parseInput } from '../validate.js';
import type { ChatDeps } from './deps.js';
import { loadObserverBinding, observerStatus, requireObserverFeature } from './observerAccess.js';
import { projectTerminalMessage } from './projectTerminalMessage.js';

/**
 * GET /api/agi/agent-run-observer/bindings/{binding_ref}/events?after_seq&limit (OBS-11, OBS-13,
 * OBS-14): one page of the bound run's progress for the browser's own binding, while unlocked
 * (SLR-11). Progress stays here, never in the chat; the poll also projects the run's verified
 * terminal product into the chat once (projectTerminalMessage.ts). Before the agent claims the
 * handle the page is empty; after a disconnect, a withdrawal or the expiry the lane is closed.
 */
export const listObserverEvents = async (
  deps: ChatDeps,
  accountId: string,
  bindingRef: string,
  query: unknown,
): Promise<ObserverEventPage> => {
  await requireObserverFeature(deps, accountId);
  const { after_seq: afterSeq, limit } = parseInput(ObserverEventsQuerySchema, query);
  const binding = await loadObserverBinding(deps, accountId, bindingRef);
  const status = await observerStatus(deps, binding);
  if (status === 'revoked' || status === 'expired') throw new HelixError('observer_binding_closed');
  if (status === 'pending_claim' || binding.runId === null)
    return observerEventPage(binding, status, [], afterSeq, false, null);
  // One extra row tells whether another page exists, as the run's own event page does.
  const rows = await deps.store.read.events.list(binding.runId, afterSeq, limit + 1);
  const terminal = await projectTerminalMessage(deps, binding);
  return observerEventPage(binding, status, rows.slice(0, limit), afterSeq, rows.length > limit, terminal);
};
