/**
 * One replica against two on one PostgreSQL database: start-run throughput (the write path, where
 * replicas contend on the database) with every request sent to replica A, then with the same total
 * number of connections split evenly between A and B (two autocannon instances at once, their
 * successes summed). Both replicas are up throughout and the two loads alternate in rounds
 * (throughputRounds.ts), so outside load lands on both. Runs only when HELIX_BENCH_POSTGRES_URL
 * names an admin URL on loopback; the database is created for the phase and dropped after it.
 *
 * On a machine with few cores, PostgreSQL, both replicas and the load generator share them; the
 * figure says what a second replica buys on this machine, not on one with a core per process.
 */
import { cpus } from 'node:os';
import { createScratchDatabase, unusableAdminUrl } from './postgresDatabase.js';
import { ownCpuMs, postgresCpuMs, processCpuMs } from './processCpu.js';
import { startLoad } from './startThroughput.js';
import { launchTarget, type Target } from './target.js';
import { measureAlternating, type Load, type LoadShape, type Throughput } from './throughputRounds.js';

export const REPLICA_LOADS = ['one', 'two'] as const;
export type ReplicaLoad = (typeof REPLICA_LOADS)[number];

/** CPU milliseconds per successful start, by who spent them, over every round of one load (warm-up included). */
export interface CpuPerStart {
  readonly helix: number;
  readonly postgres: number;
  readonly loadGenerator: number;
}

export type Replicas =
  | {
      readonly kind: 'measured';
      readonly postgresVersion: string;
      readonly load: LoadShape;
      readonly throughput: Readonly<Record<ReplicaLoad, Throughput>>;
      readonly cpuPerStart: Readonly<Record<ReplicaLoad, CpuPerStart>>;
      /** Cores on this machine: with the CPU per start, the throughput the machine can hold at most. */
      readonly cores: number;
    }
  | { readonly kind: 'skipped'; readonly reason: string };

export const REPLICAS_URL_VARIABLE = 'HELIX_BENCH_POSTGRES_URL';

interface CpuTotals {
  helix: number;
  postgres: number;
  loadGenerator: number;
  starts: number;
}

/** `load`, with the CPU every party spent during it, and its successes, added to `totals`. */
const metered =
  (load: Load, replicas: readonly Target[], totals: CpuTotals): Load =>
  async (seconds) => {
    const sample = async () => ({
      helix: (await Promise.all(replicas.map((r) => processCpuMs(r.pid)))).reduce((a, b) => a + b, 0),
      postgres: await postgresCpuMs(),
      loadGenerator: ownCpuMs(),
    });
    const before = await sample();
    const result = await load(seconds);
    const after = await sample();
    totals.helix += after.helix - before.helix;
    totals.postgres += after.postgres - before.postgres;
    totals.loadGenerator += after.loadGenerator - before.loadGenerator;
    totals.starts += result['2xx'];
    return result;
  };

const perStart = (t: CpuTotals): CpuPerStart => {
  const n = Math.max(1, t.starts);
  return { helix: t.helix / n, postgres: t.postgres / n, loadGenerator: t.loadGenerator / n };
};

/** Two loads at once, read as one: successes and failures summed over the longer of the two durations. */
const together =
  (a: Load, b: Load): Load =>
  async (seconds) => {
    const [x, y] = await Promise.all([a(seconds), b(seconds)]);
    return {
      ...x,
      '2xx': x['2xx'] + y['2xx'],
      non2xx: x.non2xx + y.non2xx,
      errors: x.errors + y.errors,
      duration: Math.max(x.duration, y.duration),
    };
  };

export const measureReplicas = async (
  adminUrl: string | undefined,
  load: LoadShape,
  progress: (message: string) => void,
): Promise<Replicas> => {
  if (adminUrl === undefined || adminUrl === '') return { kind: 'skipped', reason: `set ${REPLICAS_URL_VARIABLE}` };
  const unusable = unusableAdminUrl(adminUrl);
  if (unusable !== undefined) return { kind: 'skipped', reason: unusable };
  const database = await createScratchDatabase(adminUrl);
  const started: Target[] = [];
  try {
    // One after the other: the first one migrates the new database.
    for (let i = 0; i < 2; i++) started.push(await launchTarget('helix', { databaseUrl: database.url }));
    const [a, b] = started as [Target, Target];
    progress(`  replicas up: ${a.url} and ${b.url}`);
    const half = Math.max(1, Math.floor(load.connections / 2));
    const cpu: Record<ReplicaLoad, CpuTotals> = {
      one: { helix: 0, postgres: 0, loadGenerator: 0, starts: 0 },
      two: { helix: 0, postgres: 0, loadGenerator: 0, starts: 0 },
    };
    const throughput = await measureAlternating(
      REPLICA_LOADS,
      {
        one: metered(startLoad(a, load.connections), [a, b], cpu.one),
        two: metered(together(startLoad(a, half), startLoad(b, load.connections - half)), [a, b], cpu.two),
      },
      load,
    );
    return {
      kind: 'measured',
      postgresVersion: database.serverVersion,
      load,
      throughput,
      cpuPerStart: { one: perStart(cpu.one), two: perStart(cpu.two) },
      cores: cpus().length,
    };
  } finally {
    await Promise.all(started.map((t) => t.stop()));
    await database.drop();
  }
};
