import * as crypto from 'node:crypto';

// crypto.hash (Node 20.12+) digests in one call, without a Hash object per digest: a request
// hashes its API key, its Idempotency-Key and its fingerprint. Older Node 20 releases lack it.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : undefined;

export const sha256Hex = (input: string | Uint8Array): string =>
  oneShot !== undefined ? oneShot('sha256', input, 'hex') : crypto.createHash('sha256').update(input).digest('hex');

export const hmacHex = (key: string, input: string): string =>
  crypto.createHmac('sha256', key).update(input).digest('hex');

/**
 * Canonical JSON: object keys sorted at every depth, so two requests that differ only in key
 * order fingerprint the same for idempotency.
 */
export const canonicalJson = (value: unknown): string => JSON.stringify(sortKeys(value));

const sortKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
};
