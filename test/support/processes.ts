import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const ROOT = new URL('../../', import.meta.url);

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface SpawnOptions {
  /** `ulimit -n` for the child (soft and hard, so Node cannot raise it): its file descriptor budget. */
  readonly openFileLimit?: number;
}

/** Spawns `node --import tsx <script>` from the project root with the given environment. */
export const spawnTs = (
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  options: SpawnOptions = {},
): ChildProcess => {
  const node = [process.execPath, '--import', 'tsx', script, ...args];
  const [command, ...commandArgs] =
    options.openFileLimit === undefined
      ? node
      : ['/bin/sh', '-c', 'ulimit -n "$0" && exec "$@"', String(options.openFileLimit), ...node];
  return spawn(command!, commandArgs, {
    cwd: ROOT,
    env: { ...process.env, HELIX_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
};

/** Starts the scripted test server (scripted executor) and waits for the line announcing its URL. */
export const startServerProcess = (
  database: string,
  env: Record<string, string> = {},
  options: SpawnOptions = {},
): Promise<ServerProcess> =>
  announcedServer(
    spawnTs('test/support/serveScripted.ts', [], { HELIX_DATABASE_URL: database, ...env }, options),
    (line) => (JSON.parse(line) as { url: string }).url,
  );

/** Starts the real `helix serve` (the production executor) on a free port. */
export const startCliServer = (database: string, env: Record<string, string> = {}): Promise<ServerProcess> =>
  announcedServer(
    spawnTs('src/cli/main.ts', ['serve', '--port', '0', '--database', database], env),
    (line) => /helix listening on (\S+)/.exec(line)?.[1],
  );

/** Waits for the line in which `child` announces where it listens (`urlOf` returns it), or its early exit. */
export const announcedServer = async (
  child: ChildProcess,
  urlOf: (line: string) => string | undefined,
): Promise<ServerProcess> => {
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const found = (() => {
        try {
          return urlOf(line);
        } catch {
          return undefined;
        }
      })();
      if (found !== undefined) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${String(code)} before listening: ${errors}`)));
  });
  return {
    url,
    child,
    stderr: () => errors,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
};

/** Runs the CLI (`src/cli/main.ts`) to completion and returns its exit code and output. */
export const runCli = async (
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> => {
  const child = spawnTs('src/cli/main.ts', args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code: code ?? -1, stdout, stderr };
};
