/** The replicas phase's lines and JSON fields (replicas.ts). */
import type { CpuPerStart, Replicas } from './replicas.js';
import { round } from './tables.js';
import type { LoadShape } from './throughputRounds.js';

export const describeReplicas = (load: LoadShape): string =>
  `replicas: start-run throughput on one PostgreSQL database, ${load.connections} connections to replica A alone vs ` +
  `${Math.floor(load.connections / 2)} + ${load.connections - Math.floor(load.connections / 2)} to replicas A and B at once (successes summed), ` +
  `${load.warmupSeconds} s warm-up + ${load.rounds} x ${load.roundSeconds} s measured each, alternating`;

const cpuTotal = (c: CpuPerStart): number => c.helix + c.postgres + c.loadGenerator;

/** The starts per second the machine's cores could hold at most, at this CPU per start (every party included). */
export const machineCeiling = (c: CpuPerStart, cores: number): number => (cores * 1000) / cpuTotal(c);

const cpuLine = (name: string, c: CpuPerStart, rps: number, cores: number): string =>
  `replicas CPU per start, ${name}: Helix ${c.helix.toFixed(2)} ms, PostgreSQL ${c.postgres.toFixed(2)} ms, load generator ` +
  `${c.loadGenerator.toFixed(2)} ms; ${cores} cores hold at most ${machineCeiling(c, cores).toFixed(0)} starts/s at that cost ` +
  `(measured ${rps.toFixed(0)}, ${((100 * rps) / machineCeiling(c, cores)).toFixed(0)} % of it)`;

export const replicasLines = (r: Replicas): string[] => {
  if (r.kind === 'skipped') return [`replicas (PostgreSQL): skipped: ${r.reason}`];
  const { one, two } = r.throughput;
  const { helix, postgres } = r.cpuPerStart.one;
  return [
    `replicas (PostgreSQL ${r.postgresVersion}): start-run ${one.rps.toFixed(1)} req/s on 1 replica, ${two.rps.toFixed(1)} req/s on 2 (${(two.rps / one.rps).toFixed(2)}x)`,
    `replicas start-run req/s per round: 1 replica ${one.roundRps.map((x) => x.toFixed(0)).join(', ')}; 2 replicas ${two.roundRps.map((x) => x.toFixed(0)).join(', ')}`,
    cpuLine('1 replica', r.cpuPerStart.one, one.rps, r.cores),
    cpuLine('2 replicas', r.cpuPerStart.two, two.rps, r.cores),
    `replicas projection: a replica is one Node thread, so one replica with a core of its own holds about ${(1000 / helix).toFixed(0)} starts/s ` +
      `(${helix.toFixed(2)} ms of Helix CPU each) and each PostgreSQL core about ${(1000 / postgres).toFixed(0)} (${postgres.toFixed(2)} ms each): ` +
      "on a host with a core per replica and enough for PostgreSQL, starts scale with replicas until PostgreSQL's cores, its commit rate or the disk is the limit",
  ];
};

export const replicasFields = (r: Replicas) => {
  if (r.kind === 'skipped') return { replicas_skipped: r.reason };
  const { one, two } = r.throughput;
  return {
    replicas_postgres_version: r.postgresVersion,
    replicas_one_rps: round(one.rps, 1),
    replicas_two_rps: round(two.rps, 1),
    replicas_ratio: round(two.rps / one.rps, 3),
    replicas_one_round_rps: one.roundRps.map((x) => round(x, 1)),
    replicas_two_round_rps: two.roundRps.map((x) => round(x, 1)),
    replicas_one_non2xx: one.non2xx,
    replicas_two_non2xx: two.non2xx,
    replicas_cores: r.cores,
    replicas_one_cpu_ms_per_start: r.cpuPerStart.one,
    replicas_two_cpu_ms_per_start: r.cpuPerStart.two,
  };
};
