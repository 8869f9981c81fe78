import { issuedObserverBinding } from '../../api/chatViews.js';
import { ObserverBindingRequestSchema } from '../../api/chatSchemas.js';
import { CHAT_CLAIM_TTL_MS, type ObserverBindingRecord, type SnapshotMessage } from '../../domain/chats.js';
import { redactCredentialText } from '../../domain/credentialShape.js';
import { HelixError } from '../../domain/errors.js';
import { sha256Hex } from '../../domain/hashing.js';
import type { UnitOfWork } from '../../store/port.js';
import { parseInput } from '../validate.js';
import type { ChatDeps } from './deps.js';
import { newChatClaimHandle, newObserverBindingRef, newSnapshotRef } from './ids.js';
import { requireObserverFeature } from './observerAccess.js';
import { chatNotFound, loadOwnedChat } from './ownedChat.js';

/** The chat's earlier bindings a new claim may replace: the ones nobody claimed. */
const SUPERSEDED_LOOKBACK = 20;

/** An earlier binding whose run still holds the chat; one whose run-chat binding the agent withdrew is retired. */
const stillBound = async (uow: UnitOfWork, earlier: ObserverBindingRecord): Promise<boolean> => {
  if (earlier.status !== 'active' || earlier.runChatBindingRef === null) return false;
  return (await uow.rooms.getChatBinding(earlier.runChatBindingRef))?.status === 'active';
};

const currentBinding = async (
  uow: UnitOfWork,
  listed: ObserverBindingRecord,
  accountId: string,
): Promise<ObserverBindingRecord> => (await uow.chats.getObserverBinding(listed.bindingRef, accountId)) ?? listed;

/**
 * POST /api/agi/agent-run-observer/bindings (OBS-01..OBS-03, OBS-07..OBS-10): the signed-in,
 * non-guest browser (the route checked same origin and the session) issues a show-once claim
 * handle for its own durable chat, with an optional bounded snapshot of recent messages. The
 * snapshot is quoted context only (OBS-09) and is redacted before storage (OBS-10). One observer
 * per chat (OBS-16): a new claim retires the chat's unclaimed ones (and one whose run-chat binding
 * the agent withdrew) and is refused while a run is still bound to the chat; disconnect it first (WD-08).
 */
export const issueObserverBinding = async (deps: ChatDeps, accountId: string, body: unknown) => {
  await requireObserverFeature(deps, accountId);
  const request = parseInput(ObserverBindingRequestSchema, body);
  const chat = await loadOwnedChat(deps.store.read.chats, request.chat_session_id, accountId);
  const snapshot: SnapshotMessage[] = (request.context?.messages ?? []).map((m) => ({
    role: m.role,
    content: redactCredentialText(m.content),
  }));
  const handle = newChatClaimHandle();
  const now = deps.now();
  const binding: ObserverBindingRecord = {
    bindingRef: newObserverBindingRef(),
    accountId,
    chatId: chat.chatId,
    claimHash: sha256Hex(handle),
    status: 'pending_claim',
    expiresAt: now + CHAT_CLAIM_TTL_MS,
    snapshotRef: snapshot.length > 0 ? newSnapshotRef() : null,
    snapshot,
    snapshotChars: snapshot.reduce((sum, m) => sum + m.content.length, 0),
    runId: null,
    runChatBindingRef: null,
    createdAt: now,
    claimedAt: null,
    revokedAt: null,
  };
  await deps.store.transaction(async (uow) => {
    // OBS-16: two issues at once for one chat take turns here, so the later one sees (and retires)
    // the earlier one's unclaimed handle instead of leaving two claimable.
    if (!(await uow.chats.lockChat(chat.chatId, accountId))) throw chatNotFound();
    for (const listed of await uow.chats.listObserverBindings(chat.chatId, SUPERSEDED_LOOKBACK)) {
      if (listed.status === 'pending_claim' && (await uow.chats.retireUnclaimed(listed.bindingRef, now))) continue;
      // Claimed since it was listed (a concurrent claim committed): judge it as it is now.
      const earlier = listed.status === 'pending_claim' ? await currentBinding(uow, listed, accountId) : listed;
      if (earlier.status === 'revoked') continue;
      if (await stillBound(uow, earlier)) throw new HelixError('chat_binding_conflict');
      await uow.chats.revokeObserverBinding(earlier.bindingRef, accountId, now);
    }
    await uow.chats.insertObserverBinding(binding);
  });
  return issuedObserverBinding(binding, handle);
};
