import { readFile } from 'node:fs/promises';

/** Where the soft limit cannot be read (no /proc: macOS, BSD), it is taken to be this. */
export const ASSUMED_OPEN_FILE_LIMIT = 1_024;

/**
 * Descriptors kept for everything that is not an inbound connection: the store (SQLite's file, WAL
 * and shared memory, or the PostgreSQL pool and its LISTEN connection), the log file, outbound
 * sockets to model providers, sources and telemetry, library files, child processes' pipes, and
 * Node's own (stdio, epoll, timers). A quarter of the limit, and never fewer than 64.
 */
export const descriptorHeadroom = (limit: number): number => Math.max(64, Math.ceil(limit / 4));

const MIN_CONNECTIONS = 16;
const MAX_CONNECTIONS = 1_000_000;

/** The default HELIX_HTTP_MAX_CONNECTIONS for a process that may open `limit` descriptors. */
export const connectionBudgetFor = (limit: number): number =>
  Math.min(MAX_CONNECTIONS, Math.max(MIN_CONNECTIONS, limit - descriptorHeadroom(limit)));

/** The "Max open files" soft limit in a /proc/<pid>/limits text; undefined when absent or unlimited. */
export const parseOpenFileLimit = (limits: string): number | undefined => {
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
};

/**
 * The process's RLIMIT_NOFILE soft limit (`ulimit -n`), as it is after Node raised it to the hard
 * limit at start. Linux only; elsewhere ASSUMED_OPEN_FILE_LIMIT.
 */
export const openFileLimit = async (): Promise<number> => {
  const limits = await readFile('/proc/self/limits', 'utf8').catch(() => '');
  return parseOpenFileLimit(limits) ?? ASSUMED_OPEN_FILE_LIMIT;
};
