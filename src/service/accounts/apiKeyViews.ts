import type { ApiKeyRecord } from '../../store/port.js';

/** A key's id as `helix keys create` mints it (src/auth/apiKeys.ts): what the console names a key by. */
export const API_KEY_ID = /^key_[0-9a-f]{16}$/;

/**
 * One of the account's own `hlx_` keys as its holder sees it on `/account`: never the key or its
 * hash. The display prefix (the key's first 8 characters, as `helix keys list` prints it) is kept
 * because it is how the holder of a key recognises which row is theirs.
 */
export interface AccountApiKeyView {
  readonly keyId: string;
  readonly displayPrefix: string;
  readonly label: string | null;
  readonly scopes: readonly string[];
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

export const projectApiKey = (key: ApiKeyRecord): AccountApiKeyView => ({
  keyId: key.keyId,
  displayPrefix: key.displayPrefix,
  label: key.label,
  scopes: key.scopes,
  createdAt: new Date(key.createdAt).toISOString(),
  revokedAt: key.revokedAt === null ? null : new Date(key.revokedAt).toISOString(),
});
