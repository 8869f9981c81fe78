/** Child process: the real Helix server on 127.0.0.1, embedded SQLite, default no-op executor. */
import { createApiKey } from '../src/auth/apiKeys.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startHelix } from '../src/server.js';
import { LOOPBACK, runChildServer } from './childServer.js';

runChildServer(async (databasePath) => {
  // An explicit env: nothing from the caller's environment (a HELIX_DATABASE_URL, say) leaks in.
  const config = loadConfig({ HELIX_LOG_LEVEL: 'silent' }, { port: 0, host: LOOPBACK, database: databasePath });
  const helix = await startHelix(config, { logger: createLogger('silent') });
  const { key } = await createApiKey(
    helix.store,
    { tenantId: 'bench', accountId: 'bench', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
    Date.now(),
  );
  return { ready: { url: helix.url, token: key }, close: () => helix.close() };
});
