/**
 * An in-process Helix for the growth phase, which starts it once to record what a real run's rows
 * look like: the real server on 127.0.0.1, silent, default executor, rate limits off, one API key
 * with the run scopes. The throughput phases measure `helix serve` itself (target.ts).
 */
import { createApiKey } from '../src/auth/apiKeys.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startHelix, type RunningHelix } from '../src/server.js';
import { LOOPBACK, type ChildServer } from './childServer.js';

export interface BenchHelix extends ChildServer {
  readonly helix: RunningHelix;
}

/** Starts Helix on `database` (a SQLite path or a PostgreSQL URL) and creates the bench's key. */
export const startBenchHelix = async (database: string): Promise<BenchHelix> => {
  // An explicit env: nothing from the caller's environment leaks in; the database comes as an argument.
  // The four rate limits are off (0) and the per-owner turn bound is out of reach: the bench drives
  // thousands of requests per second from one address with one key, which those limits exist to refuse.
  const env = {
    HELIX_LOG_LEVEL: 'silent',
    HELIX_AGENT_IP_RATE_LIMIT: '0',
    HELIX_MCP_IP_RATE_LIMIT: '0',
    HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
    HELIX_MCP_PRINCIPAL_RATE_LIMIT: '0',
    HELIX_MAX_CONCURRENT_TURNS_PER_OWNER: '10000',
    HELIX_HTTP_MAX_CONNECTIONS_PER_IP: '0',
  };
  const config = loadConfig(env, { port: 0, host: LOOPBACK, database });
  const helix = await startHelix(config, { logger: createLogger('silent') });
  try {
    const { key } = await createApiKey(
      helix.store,
      { tenantId: 'bench', accountId: 'bench', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
      Date.now(),
    );
    return { helix, ready: { url: helix.url, token: key }, close: () => helix.close() };
  } catch (err) {
    await helix.close();
    throw err;
  }
};
