/**
 * The bench's output: a table for people, then one JSON line (always the last line of stdout) for
 * tools that track the figures over time. Goals are reported, never asserted: a missed goal is a
 * finding, not a failure of the bench.
 */
import type { ContinueLatency, ContinueShape } from './continueLatency.js';
import type { LoadShape, StartThroughput } from './startThroughput.js';

/** The goals the benchmark issue sets. */
export const GOALS = {
  /** Helix start throughput must reach at least this fraction of the floor's. */
  startRatioMin: 0.5,
  /** Helix continue p50 may exceed the floor's p50 by at most this many milliseconds. */
  continueOverheadP50MaxMs: 3,
} as const;

export interface BenchFigures {
  readonly date: Date;
  readonly node: string;
  readonly cpus: number;
  readonly cpuModel: string;
  /**
   * One-minute load average just before the bench starts (later it counts the bench itself):
   * other work on the machine skews every figure.
   */
  readonly loadAverage: number;
  readonly load: LoadShape;
  readonly continueShape: ContinueShape;
  readonly start: { readonly helix: StartThroughput; readonly floor: StartThroughput };
  readonly continueTurn: { readonly helix: ContinueLatency; readonly floor: ContinueLatency };
}

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

const verdicts = (f: BenchFigures) => {
  const startRatio = f.start.helix.rps / f.start.floor.rps;
  const overheadP50 = f.continueTurn.helix.p50Ms - f.continueTurn.floor.p50Ms;
  return {
    startRatio,
    overheadP50,
    startMet: startRatio >= GOALS.startRatioMin,
    continueMet: overheadP50 <= GOALS.continueOverheadP50MaxMs,
  };
};

const table = (rows: readonly (readonly string[])[]): string => {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => row[col]?.length ?? 0))) ?? [];
  return rows
    .map((row) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0))).join('   '))
    .join('\n');
};

export const renderTable = (f: BenchFigures): string => {
  const v = verdicts(f);
  const { helix: sh, floor: sf } = f.start;
  const { helix: ch, floor: cf } = f.continueTurn;
  const metMark = (met: boolean) => (met ? 'MET' : 'NOT MET');
  const lines = [
    `Helix bench: ${f.date.toISOString()}, node ${f.node}, ${f.cpus} x ${f.cpuModel}, load average ${f.loadAverage.toFixed(2)} before start`,
    'SQLite WAL synchronous=FULL, HTTP on 127.0.0.1; each server in its own child process, load generator in this one',
    `start: ${f.load.connections} connections, ${f.load.warmupSeconds} s warm-up + ${f.load.rounds} x ${f.load.roundSeconds} s measured per target; ` +
      `continue: 1 client, ${f.continueShape.warmupContinues} warm-up + ${f.continueShape.measuredContinues} measured turns per target`,
    '',
    table([
      ['metric', 'helix', 'floor', 'helix/floor'],
      ['start-run throughput (req/s)', sh.rps.toFixed(1), sf.rps.toFixed(1), v.startRatio.toFixed(2)],
      ['continue latency p50 (ms)', ch.p50Ms.toFixed(2), cf.p50Ms.toFixed(2), (ch.p50Ms / cf.p50Ms).toFixed(2)],
      ['continue latency p99 (ms)', ch.p99Ms.toFixed(2), cf.p99Ms.toFixed(2), (ch.p99Ms / cf.p99Ms).toFixed(2)],
    ]),
    '',
    `start-run req/s per round: helix ${sh.roundRps.map((r) => r.toFixed(0)).join(', ')}; floor ${sf.roundRps.map((r) => r.toFixed(0)).join(', ')}`,
    '',
    `goal: start throughput >= ${GOALS.startRatioMin}x floor: ${metMark(v.startMet)} (${v.startRatio.toFixed(2)}x)`,
    `goal: continue overhead p50 <= ${GOALS.continueOverheadP50MaxMs} ms: ${metMark(v.continueMet)} (${v.overheadP50.toFixed(2)} ms)`,
  ];
  // The servers and the load generator want the cores to themselves; a load average of one or
  // more before they start means something else is running.
  if (f.loadAverage >= 1) {
    lines.push(`warning: load average ${f.loadAverage.toFixed(2)} before start; other work on this machine makes these figures noisy`);
  }
  const failures = [
    ['helix start', sh],
    ['floor start', sf],
  ] as const;
  for (const [name, s] of failures) {
    if (s.non2xx > 0 || s.errors > 0) lines.push(`warning: ${name} had ${s.non2xx} non-2xx responses and ${s.errors} connection errors`);
  }
  return `${lines.join('\n')}\n`;
};

export const renderJsonLine = (f: BenchFigures): string => {
  const v = verdicts(f);
  return `${JSON.stringify({
    bench: 'helix',
    date: f.date.toISOString(),
    node: f.node,
    cpus: f.cpus,
    cpu_model: f.cpuModel,
    load_average: round(f.loadAverage, 2),
    start_connections: f.load.connections,
    start_measured_s: f.load.rounds * f.load.roundSeconds,
    start_rps: round(f.start.helix.rps, 1),
    start_floor_rps: round(f.start.floor.rps, 1),
    start_ratio: round(v.startRatio, 3),
    start_round_rps: f.start.helix.roundRps.map((r) => round(r, 1)),
    start_floor_round_rps: f.start.floor.roundRps.map((r) => round(r, 1)),
    start_non2xx: f.start.helix.non2xx,
    start_floor_non2xx: f.start.floor.non2xx,
    continue_samples: f.continueTurn.helix.samples,
    continue_p50_ms: round(f.continueTurn.helix.p50Ms, 3),
    continue_p99_ms: round(f.continueTurn.helix.p99Ms, 3),
    continue_floor_p50_ms: round(f.continueTurn.floor.p50Ms, 3),
    continue_floor_p99_ms: round(f.continueTurn.floor.p99Ms, 3),
    continue_overhead_p50_ms: round(v.overheadP50, 3),
    goal_start_ratio_min: GOALS.startRatioMin,
    goal_start_met: v.startMet,
    goal_continue_overhead_p50_max_ms: GOALS.continueOverheadP50MaxMs,
    goal_continue_met: v.continueMet,
  })}\n`;
};
