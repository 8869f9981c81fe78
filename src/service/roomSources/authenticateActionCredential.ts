import { HelixError } from '../../domain/errors.js';
import {
  ACTION_CREDENTIAL_PATTERN,
  isSourceId,
  type RoomSourceRecord,
  sourceIsLive,
} from '../../domain/roomSources.js';
import type { Store } from '../../store/port.js';
import { sameHash } from './authenticateSourceBearer.js';
import { hashSourceSecret } from './credentials.js';

/** Every refusal is this one answer: the connector learns nothing about which check failed. */
const refused = (): HelixError =>
  new HelixError('invalid_token', {}, 'The action credential is not valid for this binding.');

/**
 * The action lane's authentication (M-02, SRC-07, §23.3): the credential must be the current
 * action credential of exactly this binding, whose source must be live (active, credentialed,
 * unexpired) in an active room. The source bearer never passes here (its `hlxsrc_` form is refused
 * before any lookup), as the action credential never passes the ingress lane's check. Rotation,
 * revocation and expiry drop the action credential with the bearer, so it stops at the next call.
 */
export const authenticateActionCredential = async (
  deps: { readonly store: Store; readonly now: () => number },
  bindingId: string,
  credential: string,
): Promise<RoomSourceRecord> => {
  if (!isSourceId(bindingId) || !ACTION_CREDENTIAL_PATTERN.test(credential)) throw refused();
  const source = await deps.store.read.roomSources.getSource(bindingId);
  if (source === undefined || !sourceIsLive(source, deps.now()) || source.actionCredentialHash === null)
    throw refused();
  if (!sameHash(source.actionCredentialHash, hashSourceSecret(credential))) throw refused();
  const room = await deps.store.read.rooms.getRoom(source.roomId);
  if (room === undefined || room.status !== 'active') throw refused();
  return source;
};
