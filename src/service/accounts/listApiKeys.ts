import type { ApiKeyRecord } from '../../store/port.js';
import type { AccountDeps } from './deps.js';

/** `helix keys list`: every key's record; a key's hash is all that is stored, never the key. */
export const listApiKeys = (deps: AccountDeps): Promise<ApiKeyRecord[]> => deps.store.read.apiKeys.list();
