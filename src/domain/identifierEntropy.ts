import { randomBytes } from 'node:crypto';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * `bytes` bytes from the CSPRNG for an identifier (a run id, a request id), drawn from a pooled
 * buffer: one `randomBytes` call per 4 KiB instead of one per identifier, which showed in request
 * profiles. Each byte is handed out once. Not for secrets (keys, tokens): those take their own
 * `randomBytes` and are never pooled in memory.
 */
const take = (bytes: number): Buffer => {
  if (bytes > POOL_BYTES) return randomBytes(bytes);
  if (offset + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const slice = pool.subarray(offset, offset + bytes);
  offset += bytes;
  return slice;
};

export const randomIdHex = (bytes: number): string => take(bytes).toString('hex');

export const randomIdBase64url = (bytes: number): string => take(bytes).toString('base64url');
