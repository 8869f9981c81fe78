import { HELIX_BENCH_ENV } from '../../bench/target.js';
import { startServerProcess, type ServerProcess } from '../../test/support/processes.js';
import { sleep } from './random.js';

/**
 * Helix processes serving one database (one on a SQLite file; any number on PostgreSQL), each
 * with turns that take a random 0..turnMaxMs so cancels race turns in flight. `killEvery` sends
 * `kill -9` to one process at a time, round robin, and starts it again: what a crash does to
 * clients (reset connections, turns left claimed) and what recovery must repair.
 */
export class Fleet {
  private readonly live: (ServerProcess | undefined)[];
  private stopping = false;
  private killer: Promise<void> = Promise.resolve();
  kills = 0;

  private constructor(
    private readonly location: string,
    private readonly env: Record<string, string>,
    servers: ServerProcess[],
  ) {
    this.live = servers;
  }

  static async start(location: string, replicas: number, turnMaxMs: number): Promise<Fleet> {
    // Every third turn of a run asks a question, so continues answer (or mis-answer) pending questions.
    const env = { ...UNBOUNDED, HELIX_TEST_TURN_MAX_MS: String(turnMaxMs), HELIX_TEST_ASK_EVERY: '3' };
    const servers = await Promise.all(Array.from({ length: replicas }, () => startServerProcess(location, env)));
    return new Fleet(location, env, servers);
  }

  /** The URLs of the processes up now. */
  urls(): string[] {
    return this.live.flatMap((s) => (s === undefined ? [] : [s.url]));
  }

  /** Kills one process every `intervalMs` (0: never) until `stop`, restarting it after `downMs`. */
  killEvery(intervalMs: number, downMs: number): void {
    if (intervalMs <= 0) return;
    this.killer = (async () => {
      for (let next = 0; !this.stopping; next = (next + 1) % this.live.length) {
        await sleep(intervalMs);
        if (this.stopping) return;
        const victim = this.live[next];
        this.live[next] = undefined;
        await victim?.kill('SIGKILL');
        this.kills++;
        await sleep(downMs);
        this.live[next] = await startServerProcess(this.location, this.env);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.killer;
    await Promise.all(this.live.map((s) => s?.kill('SIGTERM')));
  }
}

/**
 * The bench's settings (bench/target.ts): the limits that exist to refuse one client hammering the
 * service are off, since the workload is that client; the per-owner turn bound stays finite but out
 * of reach. Logs at `warn`: the request log would only fill the captured stderr.
 */
const UNBOUNDED: Record<string, string> = { ...HELIX_BENCH_ENV, HELIX_LOG_LEVEL: 'warn' };
