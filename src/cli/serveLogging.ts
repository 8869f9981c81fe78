import pino, { type DestinationStream } from 'pino';
import { CliError } from './options.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

export interface ServeLogging {
  readonly level: LogLevel;
  /** Where the JSON log lines go: a file (appended), or standard error or output. */
  readonly to: { readonly file: string } | 'stderr' | 'stdout';
}

const levelOf = (value: string, source: string): LogLevel => {
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new CliError(`${source} must be one of ${LOG_LEVELS.join(', ')}`, 2);
};

/**
 * Where `helix serve` logs. In a terminal, where people also run `helix ask`, it logs only
 * warnings and errors, to standard error, so request lines do not interleave with answers.
 * Piped or redirected (a service manager, a container, a test), it logs every request as JSON at
 * `info` on standard output, as before. `--log-level` or HELIX_LOG_LEVEL sets the level, and
 * `--log-file` sends the JSON to a file (at `info` unless a level is given).
 */
export const serveLogging = (
  options: { readonly logLevel?: string; readonly logFile?: string },
  env: NodeJS.ProcessEnv,
  terminal: boolean,
): ServeLogging => {
  const chosen =
    options.logLevel !== undefined
      ? levelOf(options.logLevel, '--log-level')
      : env.HELIX_LOG_LEVEL !== undefined && env.HELIX_LOG_LEVEL !== ''
        ? levelOf(env.HELIX_LOG_LEVEL, 'HELIX_LOG_LEVEL')
        : undefined;
  if (options.logFile !== undefined) {
    if (options.logFile === '') throw new CliError('--log-file must name a file', 2);
    return { level: chosen ?? 'info', to: { file: options.logFile } };
  }
  if (terminal) return { level: chosen ?? 'warn', to: 'stderr' };
  return { level: chosen ?? 'info', to: 'stdout' };
};

/** The stream for `to`; a log file is created (with its directory) and appended to. */
export const logDestination = (to: ServeLogging['to']): DestinationStream | undefined => {
  // Asynchronous: under load the lines of many requests leave in one write, not one write each
  // (a sync write per request line was a tenth of an inspect's CPU). Flushed on exit and SIGTERM.
  if (to === 'stdout') return pino.destination({ dest: 1, sync: false });
  if (to === 'stderr') return pino.destination(2);
  return pino.destination({ dest: to.file, append: true, mkdir: true, sync: false });
};
