// The Minecraft test rig: a flying-squid server (superflat, offline mode, 127.0.0.1, a free port)
// and the reference connector of connectors/minecraft, each in its own process so teardown is a
// signal and nothing leaks into the test worker. The packages (~585 MB) are an optional install:
// `npm --prefix connectors/minecraft ci`; tests skip with MINECRAFT_SKIP_REASON when they are absent.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { announcedServer } from './processes.js';

export const CONNECTOR_DIR = fileURLToPath(new URL('../../connectors/minecraft/', import.meta.url));

const REQUIRED_PACKAGES = ['mineflayer', 'mineflayer-pathfinder', 'flying-squid', 'tsx'] as const;

const missingPackages = (): string[] =>
  REQUIRED_PACKAGES.filter((name) => !existsSync(`${CONNECTOR_DIR}node_modules/${name}/package.json`));

/** Why the Minecraft tests skip, or undefined when the connector's packages are installed. */
export const MINECRAFT_SKIP_REASON: string | undefined = (() => {
  const missing = missingPackages();
  return missing.length === 0
    ? undefined
    : `Minecraft tests skipped: ${missing.join(', ')} not installed under connectors/minecraft ` +
        '(run `npm --prefix connectors/minecraft ci`; .ci/run does)';
})();

/** Prints the skip reason once per test file, so a skipped run says why. */
export const announceMinecraftSkip = (): boolean => {
  if (MINECRAFT_SKIP_REASON !== undefined) console.warn(MINECRAFT_SKIP_REASON);
  return MINECRAFT_SKIP_REASON !== undefined;
};

const spawnConnectorScript = (
  script: string,
  env: Record<string, string>,
  stdin: 'ignore' | 'pipe' = 'ignore',
): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: CONNECTOR_DIR,
    // Only what the child needs: the test worker's environment stays out of the connector.
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  });

export interface ChildHandle {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process has ended by itself (or by stop). */
  exited(): Promise<number | null>;
  /** Sends `signal` and resolves with the exit code (null when the signal killed it). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const handle = (child: ChildProcess): ChildHandle => {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    child,
    output: () => output,
    exited: () => exited.then(([code]) => code),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code] = await exited;
      return code;
    },
  };
};

export interface FlatWorldServer extends ChildHandle {
  readonly port: number;
  /** The server's own view of a player's position (null when the player is not on the server). */
  positionOf(username: string): Promise<{ x: number; y: number; z: number } | null>;
  /** The server's own block name at a position. */
  blockAt(x: number, y: number, z: number): Promise<string>;
}

/** Writes one stdin query (src/flatWorldServer.ts) and resolves with the first new output line that `pick` accepts. */
const askServer = async <T>(h: ChildHandle, query: string, pick: (line: Record<string, unknown>) => T | undefined) => {
  const from = h.output().length;
  h.child.stdin?.write(`${query}\n`);
  for (let waited = 0; waited < 5_000; waited += 20) {
    for (const line of h.output().slice(from).split('\n')) {
      if (!line.startsWith('{')) continue;
      const found = pick(JSON.parse(line) as Record<string, unknown>);
      if (found !== undefined) return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the flat-world server did not answer "${query}"`);
};

/**
 * Starts the flat-world server and resolves once it accepts players (flying-squid's waitForReady).
 * The world folder is the rig's, removed after the process ends, however it ended.
 */
export const startFlatWorldServer = async (options: { give?: string } = {}): Promise<FlatWorldServer> => {
  const world = mkdtempSync(join(tmpdir(), 'helix-mc-world-'));
  const child = spawnConnectorScript(
    'src/flatWorldServer.ts',
    { MINECRAFT_WORLD_DIR: world, ...(options.give ? { MINECRAFT_GIVE: options.give } : {}) },
    'pipe',
  );
  const h = handle(child);
  const removeWorld = () => rmSync(world, { recursive: true, force: true });
  child.once('exit', removeWorld);
  try {
    const announced = await announcedServer(child, (line) => {
      const port = (JSON.parse(line) as { port?: unknown }).port;
      return typeof port === 'number' ? String(port) : undefined;
    });
    return {
      ...h,
      port: Number(announced.url),
      positionOf: (username) =>
        askServer(h, `position ${username}`, (line) =>
          line.position_of === username ? (line.position as { x: number; y: number; z: number } | null) : undefined,
        ),
      blockAt: (x, y, z) =>
        askServer(h, `block ${x} ${y} ${z}`, (line) => {
          const at = line.block_at as { x: number; y: number; z: number } | undefined;
          return at?.x === x && at.y === y && at.z === z ? (line.name as string) : undefined;
        }),
    };
  } catch (error) {
    await h.stop('SIGKILL');
    throw error;
  }
};

export interface ConnectorTarget {
  readonly baseUrl: string;
  readonly bindingId: string;
  readonly worldId: string;
  readonly bearer: string;
  /** The action credential (HELIX_CONNECTOR_ACTION_BEARER); absent: the connector stays read-only. */
  readonly actionBearer?: string;
  readonly minecraftPort: number;
  readonly username?: string;
  /** Extra environment (intervals, a config file); the bearer stays in HELIX_CONNECTOR_SOURCE_BEARER. */
  readonly env?: Record<string, string>;
}

/** Starts the reference connector (`src/main.ts`) configured through its environment, never argv. */
export const startConnector = (target: ConnectorTarget): ChildHandle =>
  handle(
    spawnConnectorScript('src/main.ts', {
      HELIX_CONNECTOR_BASE_URL: target.baseUrl,
      HELIX_CONNECTOR_BINDING_ID: target.bindingId,
      HELIX_CONNECTOR_WORLD_ID: target.worldId,
      HELIX_CONNECTOR_SOURCE_BEARER: target.bearer,
      ...(target.actionBearer === undefined ? {} : { HELIX_CONNECTOR_ACTION_BEARER: target.actionBearer }),
      MINECRAFT_HOST: '127.0.0.1',
      MINECRAFT_PORT: String(target.minecraftPort),
      MINECRAFT_USERNAME: target.username ?? 'helix_connector',
      ...target.env,
    }),
  );
