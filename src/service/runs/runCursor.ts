import { timingSafeEqual } from 'node:crypto';
import { canonicalJson, hmacHex } from '../../domain/hashing.js';
import { HelixError } from '../../domain/errors.js';
import { RUN_ID_PATTERN } from '../../domain/run.js';
import type { RunListPosition } from '../../store/port.js';

/**
 * The run list's cursor: where the next page starts, bound to whoever was given it. The tag is an
 * HMAC under the instance secret over the position and the lister (an owner hash, or a console
 * account's subject key), so a cursor cannot be forged, edited, or replayed by another lister: for
 * anyone else it is a malformed cursor and finds nothing. Clients treat it as opaque.
 */
const tagOf = (secret: string, lister: string, position: RunListPosition): string =>
  hmacHex(secret, canonicalJson(['helix.run_list.cursor.v1', lister, position.createdAt, position.runId])).slice(0, 32);

export const encodeRunCursor = (secret: string, lister: string, position: RunListPosition): string =>
  `${Buffer.from(`${position.createdAt}:${position.runId}`).toString('base64url')}.${tagOf(secret, lister, position)}`;

const refused = (): HelixError =>
  new HelixError('invalid_request', {
    issues: [{ path: 'cursor', message: 'must be a next_cursor this endpoint returned' }],
  });

export const decodeRunCursor = (secret: string, lister: string, cursor: string): RunListPosition => {
  const [body = '', tag = '', ...rest] = cursor.split('.');
  const match = /^(\d{1,15}):(.+)$/.exec(Buffer.from(body, 'base64url').toString('utf8'));
  if (rest.length > 0 || match?.[1] === undefined || match[2] === undefined || !RUN_ID_PATTERN.test(match[2]))
    throw refused();
  const position = { createdAt: Number(match[1]), runId: match[2] };
  const expected = Buffer.from(tagOf(secret, lister, position));
  const given = Buffer.from(tag);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
  return position;
};
