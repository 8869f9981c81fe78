/**
 * `npm run bench [-- --only <phases>]`: Helix against its floors, over real HTTP on 127.0.0.1,
 * embedded SQLite; the research library's search on both store dialects; cost growth with the
 * store's size; one replica vs two on PostgreSQL; memory over a short soak.
 *
 * 1. start: start-run throughput (autocannon, concurrent connections), Helix and floor in alternating rounds;
 * 2. continue: continue latency p50/p99 (one sequential client; Helix with a no-op turn executor), alternating turns;
 * 3. inspect: GET /api/v1/agent-runs/{id} throughput, Helix and floor in alternating rounds;
 * 4. events: GET /api/v1/agent-runs/{id}/events?after_seq=0&limit=50 throughput, likewise;
 * 5. mcp: tools/call helix_run_inspect throughput, beside REST inspect on the same server and a bare
 *    MCP SDK floor, in alternating rounds;
 * 6. search: library search latency p50/p99 at each library size, SQLite and PostgreSQL (PGlite), in process;
 * 7. quality: recall@5 of a labelled question set over the sample library (docs/), both dialects;
 * 8. growth: store.read.runs.get / events.list latency at 10k, 100k and (within budget) 1M runs, in process;
 * 9. replicas: start-run throughput on one vs two Helix replicas sharing one PostgreSQL database
 *    (only with HELIX_BENCH_POSTGRES_URL; otherwise reported as skipped);
 * 10. soak: 150 s of mixed load at a fixed rate while the server's RSS is sampled (`npm run soak` is the long one).
 *
 * The floor (floorApp.ts) commits the same SQLite transactions and runs the same reads behind a bare
 * Fastify server, so the distance between the two is what Helix's own code costs. Each server phase
 * spawns its servers afresh, each on its own new database. Progress goes to stderr; the report goes
 * to stdout and ends with one JSON line. A run of every phase (no --only) also rewrites
 * docs/performance.md. Exit 0 whatever the figures; exit 1 only if the bench breaks, 2 on bad usage.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { measureContinueLatency, type ContinueShape } from './continueLatency.js';
import { measureMcpThroughput } from './mcpThroughput.js';
import { writePerformanceDoc } from './performanceDoc.js';
import { measureReadThroughput, READ_ROUTES } from './readThroughput.js';
import { measureReplicas, REPLICAS_URL_VARIABLE } from './replicas.js';
import { PHASES, renderTable, type BenchFigures, type Phase } from './report.js';
import { renderJsonLine } from './reportJson.js';
import { measureSearchLatency, type SearchShape } from './searchLatency.js';
import { measureSearchQuality } from './searchQuality.js';
import { measureSoak, type SoakShape } from './soak.js';
import { measureStartThroughput } from './startThroughput.js';
import { measureStoreGrowth, type GrowthShape } from './storeGrowth.js';
import { launchTarget, type LaunchOptions, type Target, type TargetKind } from './target.js';
import type { LoadShape } from './throughputRounds.js';

// About 5 s of measured load per target after a 1 s warm-up; rounds of 2 s keep autocannon's
// end-of-round loss (the requests still in flight, at most one per connection) near 1%.
const LOAD: LoadShape = { connections: 10, warmupSeconds: 1, rounds: 3, roundSeconds: 2 };
const CONTINUE: ContinueShape = { warmupContinues: 60, measuredContinues: 600, continuesPerRun: 12 };
// Populating is the slow part (SQLite's 100k takes 40-70 s on two busy cores); the budget keeps a
// slow machine from running the bench past a few minutes, at the price of the larger size.
const SEARCH: SearchShape = {
  passageCounts: [10_000, 100_000],
  passagesPerDocument: 100,
  documentsPerTransaction: 10,
  warmupQueries: 10,
  measuredQueries: 200,
  limit: 8,
  populateBudgetSeconds: 75,
  seed: 20250101,
};
// Populating 1M runs / 10M events takes 60-75 s on two cores; a slower machine reports that size as
// skipped (projected from the smaller sizes' rate) rather than running the bench past its time.
const GROWTH: GrowthShape = {
  runCounts: [10_000, 100_000, 1_000_000],
  eventsPerRun: 10,
  runsPerTransaction: 5000,
  // Two reads take ~0.1 ms: a long warm-up is cheap, and the smallest size, measured first, needs it most.
  warmupSamples: 3000,
  samples: 2000,
  pageLimit: 50,
  populateBudgetSeconds: 90,
  seed: 20250101,
};
// PostgreSQL and two replicas take longer to reach a steady rate than one SQLite server: a longer warm-up.
const REPLICAS_LOAD: LoadShape = { ...LOAD, warmupSeconds: 3 };
// A minute sampled every 5 s gives four samples in each of the thirds the verdict compares.
// Long enough for the heap's first major collection at this rate: since issue 19 cut what a request
// allocates, RSS climbs for about 80 s before V8 first collects the old space, then stays flat, so
// a one-minute soak saw only the climb (a three-minute one: +110 MB by 80 s, then flat at 162 MB).
const SOAK: SoakShape = { seconds: 150, sampleSeconds: 5, requestsPerSecond: 200, maxInFlight: 16 };

const USAGE = `usage: npm run bench [-- --only <phases>]   (phases: comma-separated, from ${PHASES.join(', ')}; default all)`;

const progress = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

class UsageError extends Error {}

/** The phases `--only a,b` (or `--only=a,b`) names, in the bench's own order; all of them without it. */
const parsePhases = (args: readonly string[]): Phase[] => {
  let only: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--only') {
      only = args[++i];
      if (only === undefined) throw new UsageError('--only needs a list of phases');
    } else if (arg.startsWith('--only=')) only = arg.slice('--only='.length);
    else throw new UsageError(`unknown argument ${arg}`);
  }
  if (only === undefined) return [...PHASES];
  const names = only
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const unknown = names.filter((n) => !(PHASES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0)
    throw new UsageError(`unknown phase(s): ${unknown.join(', ') || '(none given)'}`);
  return PHASES.filter((p) => names.includes(p));
};

/** Runs `measure` with the named servers up, and stops whichever started, whatever happens. */
const withTargets = async <K extends TargetKind, T>(
  kinds: readonly K[],
  measure: (targets: Record<K, Target>) => Promise<T>,
  options: Partial<Record<K, LaunchOptions>> = {},
): Promise<T> => {
  const started: Target[] = [];
  try {
    // One after the other: two servers starting at once on two cores would slow each other's start-up only.
    for (const kind of kinds) started.push(await launchTarget(kind, options[kind]));
    const byKind = Object.fromEntries(started.map((t) => [t.kind, t])) as Record<K, Target>;
    return await measure(byKind);
  } finally {
    await Promise.all(started.map((t) => t.stop()));
  }
};

const main = async (phases: readonly Phase[]): Promise<void> => {
  const date = new Date();
  const started = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const figures: { -readonly [K in keyof BenchFigures]?: BenchFigures[K] } = {};

  if (phases.includes('start')) {
    progress(
      `measuring start-run throughput, helix and floor (${LOAD.rounds} alternating rounds of ${LOAD.roundSeconds} s each)…`,
    );
    const start = await withTargets(['helix', 'floor'], (targets) => measureStartThroughput(targets, LOAD));
    progress(`  helix ${start.helix.rps.toFixed(1)} req/s, floor ${start.floor.rps.toFixed(1)} req/s`);
    figures.start = start;
  }
  if (phases.includes('continue')) {
    progress(`measuring continue latency, helix and floor (${CONTINUE.measuredContinues} alternating turns each)…`);
    // Issue 19's goal is stated with a no-op executor: the floor does nothing between claim and finalize either.
    const continueTurn = await withTargets(['helix', 'floor'], (targets) => measureContinueLatency(targets, CONTINUE), {
      helix: { noopTurns: true },
    });
    progress(
      `  helix p50 ${continueTurn.helix.p50Ms.toFixed(2)} ms, floor p50 ${continueTurn.floor.p50Ms.toFixed(2)} ms`,
    );
    figures.continueTurn = continueTurn;
  }
  for (const route of READ_ROUTES) {
    if (!phases.includes(route)) continue;
    progress(
      `measuring ${route} throughput, helix and floor (${LOAD.rounds} alternating rounds of ${LOAD.roundSeconds} s each)…`,
    );
    const reads = await withTargets(['helix', 'floor'], (targets) => measureReadThroughput(targets, route, LOAD));
    progress(`  helix ${reads.helix.rps.toFixed(1)} req/s, floor ${reads.floor.rps.toFixed(1)} req/s`);
    figures[route] = reads;
  }
  if (phases.includes('mcp')) {
    progress(
      `measuring inspect throughput, MCP and REST on helix and the MCP floor (${LOAD.rounds} alternating rounds of ${LOAD.roundSeconds} s each)…`,
    );
    const mcp = await withTargets(['helix', 'mcpFloor'], (targets) => measureMcpThroughput(targets, LOAD));
    progress(
      `  MCP ${mcp.mcpInspect.rps.toFixed(1)} req/s, REST ${mcp.restInspect.rps.toFixed(1)} req/s, MCP floor ${mcp.mcpFloor.rps.toFixed(1)} req/s`,
    );
    figures.mcp = mcp;
  }
  if (phases.includes('search')) {
    progress(`measuring library search latency at ${SEARCH.passageCounts.join(' and ')} passages, SQLite and PGlite…`);
    figures.search = await measureSearchLatency(SEARCH, progress);
  }
  if (phases.includes('quality')) {
    progress('measuring search quality: recall@5 of the labelled questions over docs/, SQLite and PGlite…');
    figures.quality = await measureSearchQuality(progress);
  }
  if (phases.includes('growth')) {
    progress(
      `measuring store reads as the store grows to ${GROWTH.runCounts.join(', ')} runs (population budget ${GROWTH.populateBudgetSeconds} s)…`,
    );
    figures.growth = await measureStoreGrowth(GROWTH, progress);
  }
  if (phases.includes('replicas')) {
    progress('measuring start-run throughput on one and two replicas sharing PostgreSQL…');
    figures.replicas = await measureReplicas(process.env[REPLICAS_URL_VARIABLE], REPLICAS_LOAD, progress);
    if (figures.replicas.kind === 'skipped') progress(`  skipped: ${figures.replicas.reason}`);
  }
  if (phases.includes('soak')) {
    progress(
      `soaking helix for ${SOAK.seconds} s at ${SOAK.requestsPerSecond} req/s, RSS every ${SOAK.sampleSeconds} s…`,
    );
    figures.soak = await withTargets(['helix'], (targets) => measureSoak(targets.helix, SOAK, progress));
  }

  const processors = cpus();
  const complete: BenchFigures = {
    ...figures,
    date,
    node: process.version,
    cpus: processors.length,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    loadAverage: loadAtStart,
    loadAverageEnd: loadavg()[0] ?? 0,
    seconds: (performance.now() - started) / 1000,
    phases,
    load: LOAD,
    continueShape: CONTINUE,
    searchShape: SEARCH,
    growthShape: GROWTH,
  };
  // Only a run of every phase describes the whole of issue 7's benchmark; a subset leaves the page alone.
  if (PHASES.every((p) => phases.includes(p))) progress(`wrote ${await writePerformanceDoc(complete)}`);
  else progress('docs/performance.md left as it was: only a run of every phase (no --only) rewrites it');
  process.stdout.write(renderTable(complete));
  process.stdout.write(renderJsonLine(complete));
};

let phases: Phase[];
try {
  phases = parsePhases(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(`${err.message}\n${USAGE}\n`);
  process.exit(2);
}

main(phases).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
