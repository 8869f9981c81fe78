/**
 * The parent side of a bench target: spawns a server on a fresh SQLite file in its own temporary
 * directory (or, for Helix, on a PostgreSQL database the caller names), waits until it listens,
 * and tears both down on stop.
 *
 * Helix runs as users run it: `helix serve` from the built `dist/` (bin/helix.js), plain Node, no
 * TypeScript loader, its API key made beforehand with `helix keys create`, and its request log at
 * the default level (`info`) going to a drained pipe. The floors are bench code (childServer.ts),
 * run through tsx; they do no logging.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LOOPBACK, type TargetReady } from './childServer.js';

export const TARGET_KINDS = ['helix', 'floor', 'mcpFloor'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export interface Target extends TargetReady {
  readonly kind: TargetKind;
  /** The server process, whose memory the soak samples. */
  readonly pid: number;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** Helix only: serve this PostgreSQL database (passed as HELIX_DATABASE_URL) instead of a fresh SQLite file. */
  readonly databaseUrl?: string;
  /** Extra Node flags for the server process, e.g. `--cpu-prof` (bench/profile.ts). */
  readonly nodeFlags?: readonly string[];
  /** Helix only: serve with a turn executor that does nothing (serveHelixNoopTurns.ts), for the continue phase. */
  readonly noopTurns?: boolean;
}

const FLOOR_ENTRY_POINTS: Record<Exclude<TargetKind, 'helix'>, string> = {
  floor: fileURLToPath(new URL('./serveFloor.ts', import.meta.url)),
  mcpFloor: fileURLToPath(new URL('./serveMcpFloor.ts', import.meta.url)),
};
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const HELIX_BIN = fileURLToPath(new URL('../bin/helix.js', import.meta.url));
const HELIX_NOOP_TURNS = fileURLToPath(new URL('./serveHelixNoopTurns.ts', import.meta.url));
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** The scopes of the bench's key: every route the bench drives. */
const BENCH_SCOPES = 'helix.agent_runs.read helix.agent_runs.write';

/**
 * Helix's settings for the bench: the four rate limits off (0) and the per-owner turn bound out of
 * reach, because the bench drives thousands of requests per second from one address with one key,
 * which those limits exist to refuse. Everything else is the default a user gets.
 */
export const HELIX_BENCH_ENV: Readonly<Record<string, string>> = {
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_MCP_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_MCP_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_MAX_CONCURRENT_TURNS_PER_OWNER: '10000',
  HELIX_HTTP_MAX_CONNECTIONS_PER_IP: '0',
  HELIX_LOG_LEVEL: 'info',
};

/** The child's environment: the caller's without any HELIX_ setting, plus the bench's own. */
const childEnv = (kind: TargetKind, database: string): NodeJS.ProcessEnv => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('HELIX_')));
  return kind === 'helix' ? { ...env, ...HELIX_BENCH_ENV, HELIX_DATABASE_URL: database } : env;
};

/** `helix keys create` on the database the server will serve; resolves to the key (its last stdout line). */
const createBenchKey = (env: NodeJS.ProcessEnv): Promise<string> =>
  new Promise((resolve, reject) => {
    const args = [HELIX_BIN, 'keys', 'create', '--tenant', 'bench', '--account', 'bench', '--scopes', BENCH_SCOPES];
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const key = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && key.startsWith('hlx_')) resolve(key);
      else reject(new Error(`helix keys create failed (exit ${code}): ${stderr.trim()}`));
    });
  });

/** The server process: `helix serve` for Helix, the bench's own child server for a floor. */
const spawnServer = (kind: TargetKind, database: string, options: LaunchOptions): ChildProcess => {
  const flags = options.nodeFlags ?? [];
  const args =
    kind !== 'helix'
      ? [...flags, '--import', 'tsx', FLOOR_ENTRY_POINTS[kind], database]
      : options.noopTurns === true
        ? [...flags, '--import', 'tsx', HELIX_NOOP_TURNS]
        : [...flags, HELIX_BIN, 'serve', '--host', LOOPBACK, '--port', '0'];
  return spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: childEnv(kind, database),
    // Helix's request log goes to stdout, which is drained (never read) once it listens.
    stdio: ['ignore', 'pipe', 'inherit'],
  });
};

/** Starts a target and resolves once it listens; the caller must `stop()` it. */
export const launchTarget = async (kind: TargetKind, options: LaunchOptions = {}): Promise<Target> => {
  if (options.databaseUrl !== undefined && kind !== 'helix') throw new Error(`a ${kind} target serves SQLite only`);
  if (options.noopTurns === true && kind !== 'helix') throw new Error(`a ${kind} target has no turn executor`);
  const dir = await mkdtemp(join(tmpdir(), `helix-bench-${kind}-`));
  const cleanUp = () => rm(dir, { recursive: true, force: true });
  const database = options.databaseUrl ?? join(dir, 'bench.db');
  let child: ChildProcess | undefined;
  try {
    const token = kind === 'helix' ? await createBenchKey(childEnv(kind, database)) : undefined;
    child = spawnServer(kind, database, options);
    const ready = await readyLine(child, token);
    assertLoopback(ready.url);
    const running = child;
    const pid = child.pid;
    if (pid === undefined) throw new Error('bench server has no pid');
    return { kind, pid, url: ready.url, token: ready.token, stop: () => stopChild(running).finally(cleanUp) };
  } catch (err) {
    if (child !== undefined) await stopChild(child);
    await cleanUp();
    throw err;
  }
};

/** Helix announces `helix listening on <url> (pid N)`; a floor prints its JSON ready line (childServer.ts). */
const parseReady = (line: string, helixToken: string | undefined): TargetReady | undefined => {
  if (helixToken !== undefined) {
    const url = /^helix listening on (\S+)/.exec(line)?.[1];
    return url === undefined ? undefined : { url, token: helixToken };
  }
  const ready = JSON.parse(line) as Partial<TargetReady>;
  if (typeof ready.url !== 'string' || typeof ready.token !== 'string') throw new Error('missing url or token');
  return { url: ready.url, token: ready.token };
};

const readyLine = (child: ChildProcess, helixToken: string | undefined): Promise<TargetReady> =>
  new Promise((resolve, reject) => {
    if (child.stdout === null) return reject(new Error('bench server has no stdout'));
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(
      () => fail(new Error(`bench server not ready after ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    const onExit = (code: number | null) => fail(new Error(`bench server exited (code ${code}) before it was ready`));
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      lines.close();
      reject(err);
    };
    child.once('exit', onExit);
    child.once('error', fail);
    const onLine = (line: string) => {
      let ready: TargetReady | undefined;
      try {
        ready = parseReady(line, helixToken);
      } catch (err) {
        return fail(new Error(`bench server printed an unreadable ready line: ${(err as Error).message}`));
      }
      if (ready === undefined) return; // a log line before the announcement
      clearTimeout(timer);
      child.off('exit', onExit);
      lines.off('line', onLine);
      lines.close();
      // Keep draining: a child blocked on a full stdout pipe would stall mid-benchmark.
      child.stdout?.resume();
      resolve(ready);
    };
    lines.on('line', onLine);
  });

/** The bench only ever talks to the loopback address; anything else is a bug, not a configuration. */
const assertLoopback = (url: string): void => {
  const { hostname } = new URL(url);
  if (hostname !== LOOPBACK) throw new Error(`bench server listens on ${hostname}, not ${LOOPBACK}`);
};

const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    // No pid: the spawn itself failed, so there is nothing to wait for.
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
