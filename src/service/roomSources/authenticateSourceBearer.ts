import { timingSafeEqual } from 'node:crypto';
import { HelixError } from '../../domain/errors.js';
import { isSourceId, type RoomSourceRecord, SOURCE_BEARER_PATTERN, sourceIsLive } from '../../domain/roomSources.js';
import type { Store } from '../../store/port.js';
import { hashSourceSecret } from './credentials.js';

/** Every refusal is this one answer: the connector learns nothing about which check failed. */
export const sourceCredentialRefused = (): HelixError =>
  new HelixError('invalid_token', {}, 'The source credential is not valid for this binding.');

/** Constant-time equality of two SHA-256 hex digests (both lanes' credential checks). */
export const sameHash = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/**
 * The ingress lane's authentication (ING-02, SRC-06): the bearer must be the current credential
 * of exactly this binding, which must be active, unexpired and in an active room. A revoked,
 * rotated or expired credential, or a bearer of another binding (room A's bearer on room B's
 * binding), is refused at the next call. The hash comparison is constant-time.
 */
export const authenticateSourceBearer = async (
  deps: { readonly store: Store; readonly now: () => number },
  bindingId: string,
  bearer: string,
): Promise<RoomSourceRecord> => {
  if (!isSourceId(bindingId) || !SOURCE_BEARER_PATTERN.test(bearer)) throw sourceCredentialRefused();
  const source = await deps.store.read.roomSources.getSource(bindingId);
  const now = deps.now();
  if (source === undefined || !sourceIsLive(source, now) || source.credentialHash === null)
    throw sourceCredentialRefused();
  if (!sameHash(source.credentialHash, hashSourceSecret(bearer))) throw sourceCredentialRefused();
  const room = await deps.store.read.rooms.getRoom(source.roomId);
  if (room === undefined || room.status !== 'active') throw sourceCredentialRefused();
  return source;
};
