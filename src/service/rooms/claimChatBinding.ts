import type { Principal } from '../../auth/principal.js';
import { ClaimChatBindingRequestSchema } from '../../api/roomSchemas.js';
import { HelixError } from '../../domain/errors.js';
import { isRunTerminal } from '../../domain/run.js';
import { parseInput } from '../validate.js';
import { admitCaller } from './access.js';
import type { RoomDeps } from './deps.js';

/**
 * POST /api/v1/rooms/chat-bindings/claim (RREST-06, MRT-05): consumes one browser-issued chat claim
 * handle for the caller's own run. Checks, in order: both scopes and the policy lock (SLR-11,
 * SLR-13); the strict body, whose handle is admitted here and nowhere else (SLR-10, MRT-12); the run
 * is the caller's and still active (else not found / run_not_active, as for binding a run to a room).
 *
 * The browser lane that issues handles (the observer bindings of docs/spec/shared-live-room-requirements.md
 * §6) is not built yet, so no handle can exist and every claim that passes the checks answers
 * `chat_claim_not_found`, exactly as an unknown, used or expired handle will once it is.
 */
export const claimChatBinding = async (deps: RoomDeps, principal: Principal, body: unknown): Promise<never> => {
  const caller = await admitCaller(deps, principal, 'room.claim_chat', 'feature_required');
  const request = parseInput(ClaimChatBindingRequestSchema, body);
  const run = await deps.store.read.runs.get(request.run_id);
  if (run === undefined || run.ownerHash !== caller.owner.ownerHash) throw new HelixError('not_found');
  if (isRunTerminal(run)) throw new HelixError('run_not_active', { current_version: run.version });
  throw new HelixError('chat_claim_not_found');
};
