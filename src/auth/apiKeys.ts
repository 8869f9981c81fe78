import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../domain/hashing.js';
import { isGrantableScope } from '../domain/scopes.js';
import type { ApiKeyRecord, Store } from '../store/port.js';

/** ADR-0004: Helix scoped static keys carry the `hlx_` prefix. */
export const API_KEY_PREFIX = 'hlx_';
const API_KEY_PATTERN = /^hlx_[A-Za-z0-9_-]{43}$/;
/** Tenant and account ids of keys; also the shape of a subject's account id (src/service/subjects/). */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}$/;

export const looksLikeApiKey = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

/** Keys are 256-bit random, so a plain SHA-256 is a sound at-rest form: only the hash is stored. */
export const hashApiKey = (key: string): string => sha256Hex(key);

export interface NewApiKey {
  readonly tenantId: string;
  readonly accountId: string;
  readonly scopes: readonly string[];
  readonly label?: string;
}

export class ApiKeyInputError extends Error {
  override readonly name = 'ApiKeyInputError';
}

/** Creates a key and returns it in clear exactly once, with its stored (hashed) record. */
export const createApiKey = async (
  store: Store,
  input: NewApiKey,
  now: number,
): Promise<{ key: string; record: ApiKeyRecord }> => {
  if (!IDENTIFIER_PATTERN.test(input.tenantId))
    throw new ApiKeyInputError('tenant must be 1-200 characters of [A-Za-z0-9._:@-]');
  if (!IDENTIFIER_PATTERN.test(input.accountId))
    throw new ApiKeyInputError('account must be 1-200 characters of [A-Za-z0-9._:@-]');
  if (input.scopes.length === 0) throw new ApiKeyInputError('at least one scope is required');
  const unknown = input.scopes.filter((s) => !isGrantableScope(s));
  if (unknown.length > 0) throw new ApiKeyInputError(`unknown scope(s): ${unknown.join(' ')} (see docs/auth.md)`);
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const record: ApiKeyRecord = {
    keyId: `key_${randomBytes(8).toString('hex')}`,
    keyHash: hashApiKey(key),
    displayPrefix: `${key.slice(0, 8)}…`,
    tenantId: input.tenantId,
    accountId: input.accountId,
    scopes: [...new Set(input.scopes)].sort(),
    label: input.label ?? null,
    createdAt: now,
    revokedAt: null,
  };
  await store.read.apiKeys.insert(record);
  return { key, record };
};

/** The active key record for a presented key, or undefined (unknown, malformed and revoked alike). */
export const findActiveApiKey = async (store: Store, presented: string): Promise<ApiKeyRecord | undefined> => {
  if (!API_KEY_PATTERN.test(presented)) return undefined;
  return findActiveApiKeyByHash(store, hashApiKey(presented));
};

/** The active key record with this hash (hashApiKey of a well-formed key), or undefined. */
export const findActiveApiKeyByHash = async (store: Store, keyHash: string): Promise<ApiKeyRecord | undefined> => {
  const record = await store.read.apiKeys.findByHash(keyHash);
  return record === undefined || record.revokedAt !== null ? undefined : record;
};

/** Whether `presented` has the shape of an `hlx_` key (looksLikeApiKey only checks the prefix). */
export const isWellFormedApiKey = (presented: string): boolean => API_KEY_PATTERN.test(presented);
