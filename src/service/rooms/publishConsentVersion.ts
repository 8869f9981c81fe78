import { ConsentTextSchema } from '../../api/roomSchemas.js';
import { HelixError } from '../../domain/errors.js';
import { parseInput } from '../validate.js';
import { loadRoomAsOwner, requireRoomFeatureFor } from './access.js';
import type { RoomDeps } from './deps.js';
import { newConsentReceiptRef } from './ids.js';

/**
 * Console/CLI (D-09): an owner publishes a new consent version. Every other member must accept it
 * (acceptConsent.ts) before binding a run again; the publisher accepts it by publishing. Existing
 * bindings keep the consent they were made under (BRE-04 compares it at each later check).
 */
export const publishConsentVersion = async (
  deps: RoomDeps,
  actingAccountId: string,
  roomId: string,
  text: string,
): Promise<{ readonly room_id: string; readonly consent_version: number }> => {
  await requireRoomFeatureFor(deps, actingAccountId);
  const consentText = parseInput(ConsentTextSchema, text);
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const { room, member } = await loadRoomAsOwner(uow.rooms, roomId, actingAccountId);
    // Compare-and-set: two owners publishing at once cannot both become the same version.
    if (!(await uow.rooms.advanceConsentVersion(roomId, room.consentVersion, now)))
      throw new HelixError('store_unavailable', { retry_after_seconds: 1 });
    const version = room.consentVersion + 1;
    await uow.rooms.insertConsentVersion({
      roomId,
      version,
      text: consentText,
      publishedAt: now,
      publishedBy: actingAccountId,
    });
    await uow.rooms.saveMember({
      ...member,
      acceptedConsentVersion: version,
      consentReceiptRef: newConsentReceiptRef(),
    });
    return { room_id: roomId, consent_version: version };
  });
};
