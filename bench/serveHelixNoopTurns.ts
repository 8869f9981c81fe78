/**
 * Child process: Helix as `helix serve` runs it (the built dist/, its configuration from the
 * environment, the request log at `info` on standard output, asynchronously) but with a turn
 * executor that does nothing, for the continue phase. Issue 19 defines the continue goal with a
 * no-op executor, and the floor does nothing between its claim and its finalize, so the distance
 * is what Helix's claim, finalize and request handling cost, not what a solver does. Announces
 * itself as `helix serve` does: `helix listening on <url> (pid N)`.
 */
import { LOOPBACK } from './childServer.js';

const dist = (path: string): string => new URL(`../dist/${path}`, import.meta.url).href;

// The built modules, typed by their sources.
const { loadConfig } = (await import(dist('config.js'))) as typeof import('../src/config.js');
const { startHelix } = (await import(dist('server.js'))) as typeof import('../src/server.js');
const { logDestination } = (await import(dist('cli/serveLogging.js'))) as typeof import('../src/cli/serveLogging.js');
const { emptyOutcome } = (await import(dist('domain/turn.js'))) as typeof import('../src/domain/turn.js');

const config = loadConfig(process.env, { host: LOOPBACK, port: 0 });
const destination = logDestination('stdout');
const helix = await startHelix(
  { ...config, logLevel: 'info' },
  {
    executor: { provider: 'bench.noop', executeTurn: async () => emptyOutcome() },
    ...(destination === undefined ? {} : { logDestination: destination }),
  },
);
process.stdout.write(`helix listening on ${helix.url} (pid ${process.pid})\n`);
const stop = () => {
  helix.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
