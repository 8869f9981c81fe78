import { projectBindings, type BindingListView } from './bindingViews.js';
import type { AccountDeps } from './deps.js';
import { requireSessionAccount } from './sessionAccount.js';

/** GET /api/account/session/agent-bindings: the signed-in account's agent bindings. */
export const listBindings = async (deps: AccountDeps, sessionCookie: string | undefined): Promise<BindingListView> =>
  projectBindings(await deps.store.read.bindings.listForAccount(await requireSessionAccount(deps, sessionCookie)));
