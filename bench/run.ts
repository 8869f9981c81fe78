/**
 * `npm run bench`: Helix against its floor, over real HTTP on 127.0.0.1, embedded SQLite.
 *
 * 1. start-run throughput (autocannon, concurrent connections), Helix and floor in alternating rounds;
 * 2. continue latency p50/p99 (one sequential client, default no-op executor), alternating turns.
 *
 * The floor (floorApp.ts) commits the same SQLite transactions behind a bare Fastify server, so
 * the distance between the two is what Helix's own code costs. Each phase spawns both servers
 * afresh, each on its own new database file. Progress goes to stderr; the report goes to stdout
 * and ends with one JSON line. Exit 0 whatever the figures; exit 1 only if the bench breaks.
 */
import { cpus, loadavg } from 'node:os';
import { measureContinueLatency, type ContinueShape } from './continueLatency.js';
import { renderJsonLine, renderTable, type BenchFigures } from './report.js';
import { measureStartThroughput, type LoadShape } from './startThroughput.js';
import { launchTarget, TARGET_KINDS, type Target, type TargetKind } from './target.js';

// About 5 s of measured load per target after a 1 s warm-up; rounds of 2 s keep autocannon's
// end-of-round loss (the requests still in flight, at most one per connection) near 1%.
const LOAD: LoadShape = { connections: 10, warmupSeconds: 1, rounds: 3, roundSeconds: 2 };
const CONTINUE: ContinueShape = { warmupContinues: 60, measuredContinues: 600, continuesPerRun: 12 };

const progress = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

/** Runs `measure` with both servers up, and stops whichever started, whatever happens. */
const withTargets = async <T>(measure: (targets: Record<TargetKind, Target>) => Promise<T>): Promise<T> => {
  const started: Target[] = [];
  try {
    // One after the other: two servers starting at once on two cores would slow each other's start-up only.
    for (const kind of TARGET_KINDS) started.push(await launchTarget(kind));
    const byKind = Object.fromEntries(started.map((t) => [t.kind, t])) as Record<TargetKind, Target>;
    return await measure(byKind);
  } finally {
    await Promise.all(started.map((t) => t.stop()));
  }
};

const main = async (): Promise<void> => {
  const date = new Date();
  const loadAtStart = loadavg()[0] ?? 0;
  progress(`measuring start-run throughput, helix and floor (${LOAD.rounds} alternating rounds of ${LOAD.roundSeconds} s each)…`);
  const start = await withTargets((targets) => measureStartThroughput(targets, LOAD));
  progress(`  helix ${start.helix.rps.toFixed(1)} req/s, floor ${start.floor.rps.toFixed(1)} req/s`);

  progress(`measuring continue latency, helix and floor (${CONTINUE.measuredContinues} alternating turns each)…`);
  const continueTurn = await withTargets((targets) => measureContinueLatency(targets, CONTINUE));
  progress(`  helix p50 ${continueTurn.helix.p50Ms.toFixed(2)} ms, floor p50 ${continueTurn.floor.p50Ms.toFixed(2)} ms`);

  const processors = cpus();
  const figures: BenchFigures = {
    date,
    node: process.version,
    cpus: processors.length,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    loadAverage: loadAtStart,
    load: LOAD,
    continueShape: CONTINUE,
    start,
    continueTurn,
  };
  process.stdout.write(renderTable(figures));
  process.stdout.write(renderJsonLine(figures));
};

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
