import { Command } from 'commander';
import { isIP } from 'node:net';
import { loadConfig } from '../config.js';
import { startHelix } from '../server.js';
import { CliError, databaseOptionHelp } from './options.js';
import { LOG_LEVELS, logDestination, serveLogging } from './serveLogging.js';

type ServeOptions = { host?: string; port?: string; database?: string; logLevel?: string; logFile?: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

const isLoopback = (host: string): boolean => LOOPBACK_HOSTS.has(host) || (isIP(host) === 4 && host.startsWith('127.'));

export const serveCommand = (): Command =>
  new Command('serve')
    .description('run the Helix server (REST at /api/v1/agent-runs, health at /healthz)')
    .option('--host <host>', 'interface to listen on (default: $HELIX_HOST or 127.0.0.1)')
    .option('--port <port>', 'TCP port, 0 picks a free one (default: $HELIX_PORT or 1522)')
    .option('--database <path|url>', databaseOptionHelp)
    .option('--log-level <level>', `${LOG_LEVELS.join('|')} (default: warn in a terminal, else info)`)
    .option('--log-file <path>', 'append the JSON log to this file instead of the terminal')
    .action(async (options: ServeOptions) => {
      const logging = serveLogging(options, process.env, process.stdout.isTTY === true);
      if (options.port !== undefined && (!/^\d{1,5}$/.test(options.port) || Number(options.port) > 65_535)) {
        throw new CliError('--port must be 0-65535', 2);
      }
      const config = loadConfig(process.env, {
        ...(options.host === undefined ? {} : { host: options.host }),
        ...(options.port === undefined ? {} : { port: Number(options.port) }),
        ...(options.database === undefined ? {} : { database: options.database }),
      });
      // Plain HTTP is only for loopback outside production; anything else needs the production setup.
      if (!config.production && !isLoopback(config.host)) {
        throw new CliError(
          `refusing to serve plain HTTP on non-loopback host ${config.host} outside production (NODE_ENV=production)`,
          2,
        );
      }
      const destination = logDestination(logging.to);
      const helix = await startHelix(
        { ...config, logLevel: logging.level },
        destination === undefined ? {} : { logDestination: destination },
      );
      // The pid is this process's: `npx helix serve &` puts npx's pid in $!, not the server's.
      process.stdout.write(`helix listening on ${helix.url} (pid ${process.pid})\n`);
      const stop = (signal: string) => {
        process.stdout.write(`received ${signal}, shutting down\n`);
        helix.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
