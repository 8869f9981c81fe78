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
import { HELIX_BENCH_ENV } from './target.js';

export interface BenchHelix extends ChildServer {
  readonly helix: RunningHelix;
}

/** Starts Helix on `database` (a SQLite path or a PostgreSQL URL) and creates the bench's key. */
export const startBenchHelix = async (database: string): Promise<BenchHelix> => {
  // An explicit env: nothing from the caller's environment leaks in; the database comes as an argument.
  // The settings of the served bench (target.ts), silent: this one runs inside the bench process.
  const env = { ...HELIX_BENCH_ENV, HELIX_LOG_LEVEL: 'silent' };
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
