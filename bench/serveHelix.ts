/** Child process: the real Helix server on 127.0.0.1, embedded SQLite, default no-op executor. */
import { createApiKey } from '../src/auth/apiKeys.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startHelix } from '../src/server.js';
import { LOOPBACK, runChildServer } from './childServer.js';

runChildServer(async (databasePath) => {
  // An explicit env: nothing from the caller's environment (a HELIX_DATABASE_URL, say) leaks in.
  // The four rate limits are off (0): the bench drives thousands of requests per second from one
  // address with one key, which the per-IP and per-principal limits exist to refuse.
  const env = {
    HELIX_LOG_LEVEL: 'silent',
    HELIX_AGENT_IP_RATE_LIMIT: '0',
    HELIX_MCP_IP_RATE_LIMIT: '0',
    HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
    HELIX_MCP_PRINCIPAL_RATE_LIMIT: '0',
  };
  const config = loadConfig(env, { port: 0, host: LOOPBACK, database: databasePath });
  const helix = await startHelix(config, { logger: createLogger('silent') });
  const { key } = await createApiKey(
    helix.store,
    { tenantId: 'bench', accountId: 'bench', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
    Date.now(),
  );
  return { ready: { url: helix.url, token: key }, close: () => helix.close() };
});
