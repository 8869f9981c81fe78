import type { AccountRecord } from '../../store/port.js';
import type { AccountDeps } from './deps.js';

export interface AccountSummary {
  readonly account: AccountRecord;
  readonly activeBindings: number;
}

/** `helix accounts list`: every account with its count of active agent bindings (never subjects or tenants). */
export const listAccounts = async (deps: AccountDeps): Promise<AccountSummary[]> => {
  const accounts = await deps.store.read.accounts.list();
  const summaries: AccountSummary[] = [];
  for (const account of accounts) {
    const bindings = await deps.store.read.bindings.listForAccount(account.accountId);
    summaries.push({ account, activeBindings: bindings.filter((b) => b.status === 'active').length });
  }
  return summaries;
};
