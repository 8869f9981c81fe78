/**
 * The parent side of a bench target: spawns a server child (see childServer.ts) on a fresh SQLite
 * file in its own temporary directory (or, for Helix, on a PostgreSQL database the caller names),
 * waits for its ready line, and tears both down on stop.
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
}

const ENTRY_POINTS: Record<TargetKind, string> = {
  helix: fileURLToPath(new URL('./serveHelix.ts', import.meta.url)),
  floor: fileURLToPath(new URL('./serveFloor.ts', import.meta.url)),
  mcpFloor: fileURLToPath(new URL('./serveMcpFloor.ts', import.meta.url)),
};
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** The child's environment: the caller's, minus any HELIX_DATABASE_URL it did not ask for. */
const childEnv = (options: LaunchOptions): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env.HELIX_DATABASE_URL;
  if (options.databaseUrl !== undefined) env.HELIX_DATABASE_URL = options.databaseUrl;
  return env;
};

/** Starts a target and resolves once it listens; the caller must `stop()` it. */
export const launchTarget = async (kind: TargetKind, options: LaunchOptions = {}): Promise<Target> => {
  if (options.databaseUrl !== undefined && kind !== 'helix') throw new Error(`a ${kind} target serves SQLite only`);
  const dir = await mkdtemp(join(tmpdir(), `helix-bench-${kind}-`));
  const cleanUp = () => rm(dir, { recursive: true, force: true });
  let child: ChildProcess | undefined;
  try {
    // Both targets run TypeScript through the same loader, so neither gets a head start from a build.
    child = spawn(process.execPath, ['--import', 'tsx', ENTRY_POINTS[kind], join(dir, 'bench.db')], {
      cwd: REPO_ROOT,
      env: childEnv(options),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ready = await readyLine(child);
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

const readyLine = (child: ChildProcess): Promise<TargetReady> =>
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
    lines.once('line', (line) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      lines.close();
      // Keep draining: a child blocked on a full stdout pipe would stall mid-benchmark.
      child.stdout?.resume();
      try {
        const ready = JSON.parse(line) as Partial<TargetReady>;
        if (typeof ready.url !== 'string' || typeof ready.token !== 'string') throw new Error('missing url or token');
        resolve({ url: ready.url, token: ready.token });
      } catch (err) {
        reject(new Error(`bench server printed an unreadable ready line: ${(err as Error).message}`));
      }
    });
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
