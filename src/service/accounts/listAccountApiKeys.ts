import { type AccountApiKeyView, projectApiKey } from './apiKeyViews.js';
import type { AccountDeps } from './deps.js';

/** GET /account: the signed-in account's keys, oldest first, revoked ones included. */
export const listAccountApiKeys = async (deps: AccountDeps, accountId: string): Promise<AccountApiKeyView[]> =>
  (await deps.store.read.apiKeys.listForAccount(accountId)).map(projectApiKey);
