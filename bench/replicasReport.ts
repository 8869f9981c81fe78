/** The replicas phase's lines and JSON fields (replicas.ts). */
import type { Replicas } from './replicas.js';
import { round } from './tables.js';
import type { LoadShape } from './throughputRounds.js';

export const describeReplicas = (load: LoadShape): string =>
  `replicas: start-run throughput on one PostgreSQL database, ${load.connections} connections to replica A alone vs ` +
  `${Math.floor(load.connections / 2)} + ${load.connections - Math.floor(load.connections / 2)} to replicas A and B at once (successes summed), ` +
  `${load.warmupSeconds} s warm-up + ${load.rounds} x ${load.roundSeconds} s measured each, alternating`;

export const replicasLines = (r: Replicas): string[] => {
  if (r.kind === 'skipped') return [`replicas (PostgreSQL): skipped: ${r.reason}`];
  const { one, two } = r.throughput;
  return [
    `replicas (PostgreSQL ${r.postgresVersion}): start-run ${one.rps.toFixed(1)} req/s on 1 replica, ${two.rps.toFixed(1)} req/s on 2 (${(two.rps / one.rps).toFixed(2)}x)`,
    `replicas start-run req/s per round: 1 replica ${one.roundRps.map((x) => x.toFixed(0)).join(', ')}; 2 replicas ${two.roundRps.map((x) => x.toFixed(0)).join(', ')}`,
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
  };
};
