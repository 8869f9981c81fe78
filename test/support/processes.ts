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

/** Spawns `node --import tsx <script>` from the project root with the given environment. */
export const spawnTs = (script: string, args: readonly string[], env: Record<string, string>): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, HELIX_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** Starts the scripted test server and waits for the line announcing its URL. */
export const startServerProcess = async (database: string, env: Record<string, string> = {}): Promise<ServerProcess> => {
  const child = spawnTs('test/support/serveScripted.ts', [], { HELIX_DATABASE_URL: database, ...env });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => line as string),
    once(child, 'exit').then(([code]) => {
      throw new Error(`server exited with ${String(code)} before listening: ${errors}`);
    }),
  ]);
  const { url } = JSON.parse(first) as { url: string };
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
export const runCli = async (args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> => {
  const child = spawnTs('src/cli/main.ts', args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code: code ?? -1, stdout, stderr };
};
