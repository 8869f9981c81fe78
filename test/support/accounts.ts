import { loadInstanceSecret } from '../../src/auth/instanceSecret.js';
import type { AccountDeps } from '../../src/service/accounts/deps.js';
import type { Store } from '../../src/store/port.js';

/** The account use cases' dependencies over a test's store, as the server and the CLI build them. */
export const accountDeps = async (store: Store, now: () => number = Date.now): Promise<AccountDeps> => ({
  store,
  instanceSecret: await loadInstanceSecret(store),
  now,
});
