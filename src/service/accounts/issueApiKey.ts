import { createApiKey, type NewApiKey } from '../../auth/apiKeys.js';
import type { ApiKeyRecord } from '../../store/port.js';
import type { AccountDeps } from './deps.js';

export interface IssuedApiKey {
  /** The key itself: shown once, never stored (only its hash is). */
  readonly key: string;
  readonly record: ApiKeyRecord;
  /** False when the key's account is no Helix account: such a key works only outside production. */
  readonly helixAccount: boolean;
}

/** `helix keys create`: mints an ADR-0004 `hlx_` key bound to a tenant and an account. */
export const issueApiKey = async (deps: AccountDeps, input: NewApiKey): Promise<IssuedApiKey> => {
  const { key, record } = await createApiKey(deps.store, input, deps.now());
  const helixAccount = (await deps.store.read.accounts.get(record.accountId)) !== undefined;
  return { key, record, helixAccount };
};
