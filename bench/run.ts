/**
 * `npm run bench [-- --only start,continue,mcp,search,quality]`: Helix against its floors, over real HTTP
 * on 127.0.0.1, embedded SQLite; then the research library's search on both store dialects.
 *
 * 1. start: start-run throughput (autocannon, concurrent connections), Helix and floor in alternating rounds;
 * 2. continue: continue latency p50/p99 (one sequential client, default no-op executor), alternating turns;
 * 3. mcp: tools/call helix_run_inspect throughput, beside REST inspect on the same server and a bare
 *    MCP SDK floor, in alternating rounds;
 * 4. search: library search latency p50/p99 at each library size, SQLite and PostgreSQL (PGlite), in process;
 * 5. quality: recall@5 of a labelled question set over the sample library (docs/), both dialects.
 *
 * The floor (floorApp.ts) commits the same SQLite transactions behind a bare Fastify server, so
 * the distance between the two is what Helix's own code costs. Each server phase spawns its servers
 * afresh, each on its own new database file. Progress goes to stderr; the report goes to stdout
 * and ends with one JSON line. Exit 0 whatever the figures; exit 1 only if the bench breaks, 2 on bad usage.
 */
import { cpus, loadavg } from 'node:os';
import { measureContinueLatency, type ContinueShape } from './continueLatency.js';
import { measureMcpThroughput } from './mcpThroughput.js';
import { PHASES, renderJsonLine, renderTable, type BenchFigures, type Phase } from './report.js';
import { measureSearchLatency, type SearchShape } from './searchLatency.js';
import { measureSearchQuality } from './searchQuality.js';
import { measureStartThroughput } from './startThroughput.js';
import { launchTarget, type Target, type TargetKind } from './target.js';
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
  const names = only.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const unknown = names.filter((n) => !(PHASES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) throw new UsageError(`unknown phase(s): ${unknown.join(', ') || '(none given)'}`);
  return PHASES.filter((p) => names.includes(p));
};

/** Runs `measure` with the named servers up, and stops whichever started, whatever happens. */
const withTargets = async <K extends TargetKind, T>(kinds: readonly K[], measure: (targets: Record<K, Target>) => Promise<T>): Promise<T> => {
  const started: Target[] = [];
  try {
    // One after the other: two servers starting at once on two cores would slow each other's start-up only.
    for (const kind of kinds) started.push(await launchTarget(kind));
    const byKind = Object.fromEntries(started.map((t) => [t.kind, t])) as Record<K, Target>;
    return await measure(byKind);
  } finally {
    await Promise.all(started.map((t) => t.stop()));
  }
};

const main = async (phases: readonly Phase[]): Promise<void> => {
  const date = new Date();
  const loadAtStart = loadavg()[0] ?? 0;
  const figures: { -readonly [K in keyof BenchFigures]?: BenchFigures[K] } = {};

  if (phases.includes('start')) {
    progress(`measuring start-run throughput, helix and floor (${LOAD.rounds} alternating rounds of ${LOAD.roundSeconds} s each)…`);
    const start = await withTargets(['helix', 'floor'], (targets) => measureStartThroughput(targets, LOAD));
    progress(`  helix ${start.helix.rps.toFixed(1)} req/s, floor ${start.floor.rps.toFixed(1)} req/s`);
    figures.start = start;
  }
  if (phases.includes('continue')) {
    progress(`measuring continue latency, helix and floor (${CONTINUE.measuredContinues} alternating turns each)…`);
    const continueTurn = await withTargets(['helix', 'floor'], (targets) => measureContinueLatency(targets, CONTINUE));
    progress(`  helix p50 ${continueTurn.helix.p50Ms.toFixed(2)} ms, floor p50 ${continueTurn.floor.p50Ms.toFixed(2)} ms`);
    figures.continueTurn = continueTurn;
  }
  if (phases.includes('mcp')) {
    progress(`measuring inspect throughput, MCP and REST on helix and the MCP floor (${LOAD.rounds} alternating rounds of ${LOAD.roundSeconds} s each)…`);
    const mcp = await withTargets(['helix', 'mcpFloor'], (targets) => measureMcpThroughput(targets, LOAD));
    progress(`  MCP ${mcp.mcpInspect.rps.toFixed(1)} req/s, REST ${mcp.restInspect.rps.toFixed(1)} req/s, MCP floor ${mcp.mcpFloor.rps.toFixed(1)} req/s`);
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

  const processors = cpus();
  const complete: BenchFigures = {
    ...figures,
    date,
    node: process.version,
    cpus: processors.length,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    loadAverage: loadAtStart,
    loadAverageEnd: loadavg()[0] ?? 0,
    phases,
    load: LOAD,
    continueShape: CONTINUE,
    searchShape: SEARCH,
  };
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
