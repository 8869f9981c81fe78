/**
 * An in-process Helix on a store flavour, for tests and for the history scenarios that run outside
 * vitest (scripts/history/): nothing here depends on the test runner.
 */
import { createApiKey } from '../../src/auth/apiKeys.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startHelix, type RunningHelix, type StartOptions } from '../../src/server.js';
import type { StoreFlavour, TestStore } from './stores.js';

export const ALL_RUN_SCOPES = 'helix.agent_runs.read helix.agent_runs.write';

export interface TestHelix {
  readonly helix: RunningHelix;
  readonly url: string;
  readonly testStore: TestStore;
  /** Creates an `hlx_` key for a tenant/account with the given scopes. */
  key(scopes?: string, tenant?: string, account?: string): Promise<string>;
  close(): Promise<void>;
}

export const startTestHelix = async (
  flavour: StoreFlavour,
  options: Omit<StartOptions, 'store'> & { env?: Record<string, string> } = {},
): Promise<TestHelix> => {
  const testStore = await flavour.create();
  const config = loadConfig({ HELIX_LOG_LEVEL: 'silent', ...options.env }, { port: 0, host: '127.0.0.1' });
  const helix = await startHelix(config, {
    ...options,
    store: testStore.store,
    logger: options.logger ?? createLogger('silent'),
  });
  return {
    helix,
    url: helix.url,
    testStore,
    async key(scopes = ALL_RUN_SCOPES, tenant = 'tenant-a', account = 'account-a') {
      const { key } = await createApiKey(
        testStore.store,
        { tenantId: tenant, accountId: account, scopes: scopes.split(' ') },
        Date.now(),
      );
      return key;
    },
    async close() {
      await helix.close();
      await testStore.dispose();
    },
  };
};
