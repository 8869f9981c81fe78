import type { AccountDeps } from './deps.js';

/** `helix keys revoke`: idempotent; false when no key has this id. The next request with it fails. */
export const revokeApiKey = (deps: AccountDeps, keyId: string): Promise<boolean> =>
  deps.store.read.apiKeys.revoke(keyId, deps.now());
