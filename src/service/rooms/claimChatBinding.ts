import type { Principal } from '../../auth/principal.js';
import { ClaimChatBindingRequestSchema } from '../../api/roomSchemas.js';
import { chatBindingClaimReceipt, type ChatBindingClaimReceipt } from '../../api/roomViews.js';
import { HelixError } from '../../domain/errors.js';
import { sha256Hex } from '../../domain/hashing.js';
import { isRunTerminal } from '../../domain/run.js';
import { parseInput } from '../validate.js';
import { admitCaller } from './access.js';
import type { RoomDeps } from './deps.js';
import type { ServiceResult } from '../result.js';
import { newRunChatBindingRef } from './ids.js';

/**
 * POST /api/v1/rooms/chat-bindings/claim (RREST-06, MRT-05, OBS-04..OBS-06): consumes one
 * browser-issued chat claim handle for the caller's own run. Checks, in order: both scopes and the
 * policy lock (SLR-11, SLR-13); the strict body, whose handle is admitted here and nowhere else
 * (SLR-10, MRT-12); the run is the caller's and still active (else not found / run_not_active).
 *
 * Then one transaction: the handle is consumed once, and only if the same linked account issued
 * it and it has not expired (OBS-05; an unknown, used, expired or another account's handle all read
 * `chat_claim_not_found`), and the run-chat binding is inserted unless the run already has an
 * active one (WD-09: `chat_binding_conflict`, and the handle stays unused). The receipt names only
 * the new opaque binding ref, the snapshot ref and counts (OBS-06).
 */
export const claimChatBinding = async (
  deps: RoomDeps,
  principal: Principal,
  body: unknown,
): Promise<ServiceResult<ChatBindingClaimReceipt>> => {
  const caller = await admitCaller(deps, principal, 'room.claim_chat', 'feature_required');
  const request = parseInput(ClaimChatBindingRequestSchema, body);
  const run = await deps.store.read.runs.get(request.run_id);
  if (run === undefined || run.ownerHash !== caller.owner.ownerHash) throw new HelixError('not_found');
  if (isRunTerminal(run)) throw new HelixError('run_not_active', { current_version: run.version });
  const bindingRef = newRunChatBindingRef();
  const at = deps.now();
  const observer = await deps.store.transaction(async (uow) => {
    const consumed = await uow.chats.consumeClaim({
      claimHash: sha256Hex(request.claim_handle),
      accountId: caller.accountId,
      runId: run.runId,
      runChatBindingRef: bindingRef,
      at,
    });
    if (consumed === undefined) throw new HelixError('chat_claim_not_found');
    const inserted = await uow.rooms.insertChatBinding({
      bindingRef,
      runId: run.runId,
      ownerHash: caller.owner.ownerHash,
      chatSessionId: consumed.chatId,
      status: 'active',
      createdAt: at,
      revokedAt: null,
    });
    if (!inserted) throw new HelixError('chat_binding_conflict');
    return consumed;
  });
  const receipt = chatBindingClaimReceipt({
    bindingRef,
    snapshotRef: observer.snapshotRef,
    snapshotMessages: observer.snapshot.length,
    snapshotChars: observer.snapshotChars,
    createdAt: at,
  });
  return { status: 201, body: receipt, replayed: false };
};
