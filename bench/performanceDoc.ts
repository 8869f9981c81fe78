/**
 * docs/performance.md, written by `npm run bench` at the end of a run that included every phase
 * (run.ts): the machine, the method of each phase, every figure beside its floor, the goals and
 * whether they were met. A run with `--only` never writes it, so the document always describes one
 * complete run. The sections reuse the terminal report's rows and lines (report.ts), as Markdown.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { GOALS } from './goals.js';
import { growthLines, growthRows } from './growthReport.js';
import { profileSummaryTable } from './profileSummary.js';
import { replicasLines } from './replicasReport.js';
import {
  describeShapes,
  goalLines,
  qualityLines,
  roundLines,
  searchRows,
  searchSkipLines,
  serverRows,
  warningLines,
  type BenchFigures,
} from './report.js';
import { renderJsonLine } from './reportJson.js';
import { soakLines } from './soakReport.js';
import type { GrowthShape } from './storeGrowth.js';
import { markdownTable } from './tables.js';

export const PERFORMANCE_DOC = new URL('../docs/performance.md', import.meta.url);
const PROFILES_DOC = new URL('../docs/performance-profiles.md', import.meta.url);

const bullets = (lines: readonly string[]): string[] => lines.map((line) => `- ${line.trim()}`);
const section = (lines: readonly string[]): string[] => (lines.length > 0 ? ['', ...lines] : []);
const minutes = (seconds: number): string => `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;

const METHOD = [
  'Every HTTP server runs in its own child process on 127.0.0.1, on a fresh SQLite file (WAL, `synchronous=FULL`), ' +
    'with the four rate limits off; the load generator runs in the bench process. Helix runs as users run it: `helix serve` ' +
    'from the built `dist/` (`npm run bench` builds it first) under plain Node, its key made with `helix keys create`, its ' +
    'default executor, and its request log at the default level (`info`, one JSON line per request) going to a drained pipe. ' +
    'The continue phase alone runs the same built server with a turn executor that does nothing (`bench/serveHelixNoopTurns.ts`), ' +
    'as issue 19 states that goal, since the floor does nothing between its claim and its finalize either. ' +
    'The floors are bench code run through tsx and log nothing.',
  "The floor (`bench/floorApp.ts`) is a bare Fastify server over Helix's own schema and pragmas that commits the same " +
    'transactions and runs the same reads as Helix, as raw prepared better-sqlite3 statements: a constant bearer instead of ' +
    'an API-key lookup, no validation, no domain model, no query builder, and answers of the same shape and size. ' +
    "Helix's distance from its floor is what Helix's own code costs. The MCP floor (`bench/mcpFloorApp.ts`) is a bare MCP SDK " +
    'server per request with one constant tool.',
  'Throughput phases use autocannon over keep-alive connections; Helix and its floor run in alternating rounds ' +
    '(AB BA AB), both up throughout, so outside load on a shared machine lands on both. Latencies are nearest-rank percentiles.',
];

const growthMethod = (shape: GrowthShape): string =>
  'The store is populated around Helix on purpose: raw better-sqlite3 inserts on a second connection to the same file, ' +
  `${shape.runsPerTransaction} runs per transaction with \`synchronous=OFF\` and a large page cache, each run a copy of one real run's row (its \`state\` ` +
  `JSON included) and its first ${shape.eventsPerRun} events under a new random-looking id. Only the reads are timed, and they go through ` +
  "Helix's repositories on Helix's own connection and pragmas; the file is in the operating system's page cache, as a busy " +
  "server's would be. A size whose population is projected (from the smaller sizes' rate) to pass the budget is skipped; " +
  'one that passes it anyway is cut short and reported as skipped. The database lives in a temporary directory and is deleted.';

const REPLICAS_METHOD =
  'A fresh database is created on the server named by `HELIX_BENCH_POSTGRES_URL` (which must be on loopback) and dropped afterwards; two `helix` children ' +
  'serve it (`HELIX_DATABASE_URL`), the first one migrating it. Both are up throughout; the one-replica load goes to the first ' +
  'only, the two-replica load splits the same number of connections between them. PostgreSQL, both replicas and the load ' +
  "generator share this machine's cores, so the ratio says what a second replica buys here, not on a machine with a core per process.";

const SOAK_METHOD =
  'A paced mix of real requests (not as fast as possible), with new runs started and continued as the store grows. ' +
  "The server's VmRSS (from /proc/<pid>/status) is sampled at a fixed interval; the first third of the soak is start-up and " +
  `JIT warm-up, and RSS "levels off" when the last third's mean is less than ${GOALS.soakRssGrowthMax * 100}% above the middle third's. ` +
  'The child is `helix serve` from `dist/`, as in the throughput phases. ' +
  '`npm run soak [-- --minutes N]` runs the same code for up to an hour, sampling every 10 s.';

export const renderPerformanceDoc = (f: BenchFigures, profiles?: string): string => {
  const lines = [
    '# Performance',
    '',
    '<!-- Generated by `npm run bench` (bench/performanceDoc.ts) at the end of a run of every phase. Do not edit by hand: rerun the bench. -->',
    '',
    `Figures from one run of \`npm run bench\` on ${f.date.toISOString()}. Runs with \`--only\` print their figures but do not ` +
      'rewrite this page. The replicas phase needs `HELIX_BENCH_POSTGRES_URL` (an admin URL on loopback that may CREATE DATABASE); ' +
      'the long memory soak is `npm run soak [-- --minutes N]`.',
    '',
    '## Machine',
    '',
    markdownTable([
      ['machine', ''],
      ['CPUs', `${f.cpus} x ${f.cpuModel}`],
      ['Node.js', f.node],
      [
        'load average (1 min)',
        `${f.loadAverage.toFixed(2)} before the bench, ${f.loadAverageEnd.toFixed(2)} at its end`,
      ],
      ['bench duration', minutes(f.seconds)],
      ['phases', f.phases.join(', ')],
    ]),
    '',
    '## Goals',
    '',
    ...bullets(goalLines(f).map((line) => line.replace(/^goal: /, ''))),
    ...section(bullets(warningLines(f))),
    '',
    '## Helix beside its floors',
    '',
    markdownTable(serverRows(f)),
    '',
    ...bullets(roundLines(f)),
    '',
    '## Where the time goes',
    '',
    'CPU profiles of each hot path, before and after the changes issue 19 made, and what each change bought: ' +
      '[performance-profiles.md](performance-profiles.md) (`npm run bench:profile [-- --label <name>]`). Its headline ' +
      '(server CPU per request over the load, and the five largest self-time costs as shares of busy time):',
    '',
    profiles ?? 'No profile has been recorded yet: run `npm run bench:profile`.',
    '',
    '## Method',
    '',
    ...METHOD.flatMap((paragraph) => [paragraph, '']),
    ...bullets(describeShapes(f)),
    '',
    '## Cost growth with many runs and events',
    '',
    growthMethod(f.growthShape),
    '',
    ...(f.growth === undefined
      ? ['Not measured in this run.']
      : [markdownTable(growthRows(f.growth)), '', ...bullets(growthLines(f.growth))]),
    '',
    '## One replica vs two on PostgreSQL',
    '',
    REPLICAS_METHOD,
    '',
    ...(f.replicas === undefined ? ['Not measured in this run.'] : bullets(replicasLines(f.replicas))),
    '',
    '## Memory over a soak',
    '',
    SOAK_METHOD,
    '',
    ...(f.soak === undefined ? ['Not measured in this run.'] : bullets(soakLines(f.soak))),
    '',
    '## Library search',
    '',
    ...(f.search === undefined
      ? ['Not measured in this run.']
      : [markdownTable(searchRows(f.search)), ...section(bullets(searchSkipLines(f.search)))]),
    ...(f.quality === undefined ? [] : section(bullets(qualityLines(f.quality)))),
    '',
    '## The run as JSON',
    '',
    'The last line `npm run bench` printed, for tools that track these figures over time:',
    '',
    '```json',
    renderJsonLine(f).trim(),
    '```',
    '',
  ];
  return lines.join('\n');
};

export const writePerformanceDoc = async (f: BenchFigures): Promise<string> => {
  const profiles = await readFile(PROFILES_DOC, 'utf8').then(profileSummaryTable, () => undefined);
  await writeFile(PERFORMANCE_DOC, renderPerformanceDoc(f, profiles));
  return PERFORMANCE_DOC.pathname;
};
