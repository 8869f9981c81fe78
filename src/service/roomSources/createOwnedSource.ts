import { CreateSourceRequestSchema } from '../../api/roomSourceSchemas.js';
import { projectSource, type SourceCreateReceipt, sourceCreateReceipt } from '../../api/roomSourceViews.js';
import { ownerHashOf } from '../../auth/principal.js';
import { dataSubjectKey } from '../../domain/identityHashes.js';
import { loadRoomAsOwner, requireRoomFeatureFor } from '../rooms/access.js';
import type { RoomDeps } from '../rooms/deps.js';
import { parseInput } from '../validate.js';
import { issueDelivery } from './credentials.js';
import { newSourceRecord } from './newSource.js';

/**
 * The owner tuple of what the signed-in console creates: no agent acts, so the issuer is the
 * console itself and the subject the account. Its hash is keyed like every owner hash and
 * registered to the account's data subject, so subject access finds the source (ADR-0004).
 */
const CONSOLE_ISSUER = 'helix:console';

/**
 * The console's source manager creates a source (SRC-06, `POST /api/agi/realtime/rooms/{roomId}/
 * source-bindings` and the room page's form): as RREST-09 does, but acting as the signed-in room
 * owner, with no idempotency key (the owner sees the answer at once). The answer carries the
 * show-once credential delivery (SRC-01); no bearer exists until it is claimed (SRC-03).
 */
export const createOwnedSource = async (
  deps: RoomDeps,
  accountId: string,
  roomId: string,
  body: unknown,
): Promise<SourceCreateReceipt> => {
  await requireRoomFeatureFor(deps, accountId);
  await loadRoomAsOwner(deps.store.read.rooms, roomId, accountId);
  const request = parseInput(CreateSourceRequestSchema, body);
  const resolved = deps.adapters.resolve(request.domain_adapter, request.world_id);
  const ownerHash = ownerHashOf(
    { tenantId: '', issuer: CONSOLE_ISSUER, subject: accountId, accountId },
    deps.instanceSecret,
  );
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    // Again inside the transaction: the owner may have been removed since the first look.
    await loadRoomAsOwner(uow.rooms, roomId, accountId);
    const source = newSourceRecord(request, resolved, { roomId, accountId, ownerHash }, now);
    await uow.subjects.registerOwner(ownerHash, dataSubjectKey(deps.instanceSecret, accountId), now);
    await uow.roomSources.insertSource(source);
    const delivery = await issueDelivery(uow, source, now);
    return sourceCreateReceipt(projectSource(source, now), delivery);
  });
};
