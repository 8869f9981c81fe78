/**
 * The bench's output: a table for people, then one JSON line (reportJson.ts; always the last line of
 * stdout) for tools that track the figures over time, and, after a run of every phase,
 * docs/performance.md (performanceDoc.ts) from the same sections. Goals (goals.ts) are reported,
 * never asserted. A phase left out with `--only` leaves out its rows and its JSON fields; `phases`
 * in the JSON line says which ran.
 */
import type { ContinueLatency, ContinueShape, ContinueTarget } from './continueLatency.js';
import { GOALS } from './goals.js';
import { describeGrowth, growthGoalLine, growthLines, growthRows } from './growthReport.js';
import type { McpThroughput } from './mcpThroughput.js';
import type { ReadTarget, ReadThroughput } from './readThroughput.js';
import { describeReplicas, replicasLines } from './replicasReport.js';
import type { Replicas } from './replicas.js';
import { SEARCH_DIALECTS, type SearchLatency, type SearchShape } from './searchLatency.js';
import type { SearchQuality } from './searchQuality.js';
import type { Soak } from './soak.js';
import { describeSoak, soakGoalLine, soakLines } from './soakReport.js';
import type { StartTarget } from './startThroughput.js';
import type { GrowthShape, StoreGrowth } from './storeGrowth.js';
import { metMark, sizeLabel, textTable, type Rows } from './tables.js';
import type { LoadShape, Throughput } from './throughputRounds.js';

export const PHASES = [
  'start',
  'continue',
  'inspect',
  'events',
  'mcp',
  'search',
  'quality',
  'growth',
  'replicas',
  'soak',
] as const;
export type Phase = (typeof PHASES)[number];

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
  /** One-minute load average when the last phase ends, the bench's own work included. */
  readonly loadAverageEnd: number;
  /** Wall-clock seconds the phases took. */
  readonly seconds: number;
  readonly phases: readonly Phase[];
  readonly load: LoadShape;
  readonly continueShape: ContinueShape;
  readonly searchShape: SearchShape;
  readonly growthShape: GrowthShape;
  readonly start?: Readonly<Record<StartTarget, Throughput>>;
  readonly continueTurn?: Readonly<Record<ContinueTarget, ContinueLatency>>;
  readonly inspect?: Readonly<Record<ReadTarget, ReadThroughput>>;
  readonly events?: Readonly<Record<ReadTarget, ReadThroughput>>;
  readonly mcp?: McpThroughput;
  readonly search?: SearchLatency;
  readonly quality?: SearchQuality;
  readonly growth?: StoreGrowth;
  readonly replicas?: Replicas;
  readonly soak?: Soak;
}

const roundList = (t: Throughput): string => t.roundRps.map((r) => r.toFixed(0)).join(', ');

export const headerLine = (f: BenchFigures): string =>
  `Helix bench: ${f.date.toISOString()}, node ${f.node}, ${f.cpus} x ${f.cpuModel}, ` +
  `load average ${f.loadAverage.toFixed(2)} before start, ${f.loadAverageEnd.toFixed(2)} at the end, ${Math.round(f.seconds)} s; phases: ${f.phases.join(', ')}`;

/** One line per phase that ran: what was measured, and how. */
export const describeShapes = (f: BenchFigures): string[] => {
  const lines: string[] = [];
  const autocannonShape = `${f.load.connections} connections, ${f.load.warmupSeconds} s warm-up + ${f.load.rounds} x ${f.load.roundSeconds} s measured per target, targets alternating`;
  if (f.start !== undefined)
    lines.push(`start: POST /api/v1/agent-runs, a fresh Idempotency-Key each; ${autocannonShape}`);
  if (f.continueTurn !== undefined) {
    lines.push(
      `continue: POST …/{id}/continue, Helix with a no-op turn executor, 1 client, ${f.continueShape.warmupContinues} warm-up + ${f.continueShape.measuredContinues} measured turns per target, alternating`,
    );
  }
  const readRun = 'one run per server, started and continued 10 times beforehand (41 events)';
  if (f.inspect !== undefined) lines.push(`inspect: GET /api/v1/agent-runs/{id}; ${readRun}; ${autocannonShape}`);
  if (f.events !== undefined)
    lines.push(`events: GET /api/v1/agent-runs/{id}/events?after_seq=0&limit=50; ${readRun}; ${autocannonShape}`);
  if (f.mcp !== undefined)
    lines.push(
      `mcp: tools/call helix_run_inspect beside REST inspect on the same server; ${autocannonShape}; one run inspected throughout; MCP floor = bare SDK Server per request, one constant tool`,
    );
  if (f.search !== undefined) {
    const s = f.searchShape;
    lines.push(
      `search: in-process store.read.library.search({ terms, phrases: [] }, ${s.limit}), 1 caller, ${s.warmupQueries} warm-up + ${s.measuredQueries} measured queries of 2-5 terms; ` +
        `synthetic Zipf-distributed English-like text, ${s.passagesPerDocument} passages per document, ${s.documentsPerTransaction} documents per transaction`,
    );
  }
  if (f.growth !== undefined) lines.push(describeGrowth(f.growthShape));
  if (f.replicas?.kind === 'measured') lines.push(describeReplicas(f.replicas.load));
  if (f.soak !== undefined) lines.push(describeSoak(f.soak));
  return lines;
};

const ratioRow = (name: string, helix: number, floor: number, digits: number): string[] => [
  name,
  helix.toFixed(digits),
  floor.toFixed(digits),
  (helix / floor).toFixed(2),
];

/** Every HTTP figure beside its floor from the same run. */
export const serverRows = (f: BenchFigures): Rows => {
  const rows: string[][] = [['metric', 'helix', 'floor', 'helix/floor']];
  if (f.start !== undefined)
    rows.push(ratioRow('start-run throughput (req/s)', f.start.helix.rps, f.start.floor.rps, 1));
  if (f.continueTurn !== undefined) {
    const { helix, floor } = f.continueTurn;
    rows.push(ratioRow('continue latency p50 (ms)', helix.p50Ms, floor.p50Ms, 2));
    rows.push(ratioRow('continue latency p99 (ms)', helix.p99Ms, floor.p99Ms, 2));
  }
  if (f.inspect !== undefined)
    rows.push(ratioRow('REST inspect GET agent-runs/{id} (req/s)', f.inspect.helix.rps, f.inspect.floor.rps, 1));
  if (f.events !== undefined)
    rows.push(ratioRow('REST events GET …/{id}/events (req/s)', f.events.helix.rps, f.events.floor.rps, 1));
  if (f.mcp !== undefined) {
    const { mcpInspect, restInspect, mcpFloor } = f.mcp;
    rows.push(ratioRow('MCP tools/call helix_run_inspect (req/s)', mcpInspect.rps, mcpFloor.rps, 1));
    rows.push(['REST inspect, same server as MCP (req/s)', restInspect.rps.toFixed(1), '-', '-']);
  }
  return rows;
};

export const searchRows = (search: SearchLatency): Rows => {
  const rows: string[][] = [
    ['library search', 'passages', 'populate (s)', 'p50 (ms)', 'p99 (ms)', 'mean (ms)', 'empty'],
  ];
  for (const dialect of SEARCH_DIALECTS) {
    for (const size of search[dialect]) {
      const name = `${dialect === 'sqlite' ? 'SQLite FTS5' : 'PostgreSQL (PGlite)'} ${sizeLabel(size.passages)}`;
      if (size.kind === 'skipped') rows.push([name, String(size.passages), 'skipped', '-', '-', '-', '-']);
      else {
        const { latency } = size;
        rows.push([
          name,
          String(size.passages),
          size.populateSeconds.toFixed(1),
          latency.p50Ms.toFixed(2),
          latency.p99Ms.toFixed(2),
          latency.meanMs.toFixed(2),
          String(size.emptyQueries),
        ]);
      }
    }
  }
  return rows;
};

export const searchSkipLines = (search: SearchLatency): string[] =>
  SEARCH_DIALECTS.flatMap((d) =>
    search[d].flatMap((s) => (s.kind === 'skipped' ? [`${d} ${sizeLabel(s.passages)} skipped: ${s.reason}`] : [])),
  );

export const qualityLines = (q: SearchQuality): string[] => {
  const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
  return [
    `search quality: recall@${q.k} of ${q.queries} labelled questions over docs/ (${q.documents} documents), bench/fixtures/library-queries.json`,
    `  sqlite ${percent(q.recall.sqlite)}, pglite ${percent(q.recall.pglite)}`,
    ...[...new Set([...q.misses.sqlite, ...q.misses.pglite])].map(
      (m) =>
        `  missed (${[q.misses.sqlite.includes(m) ? 'sqlite' : '', q.misses.pglite.includes(m) ? 'pglite' : ''].filter((d) => d !== '').join(', ')}): ${m}`,
    ),
  ];
};

export const roundLines = (f: BenchFigures): string[] => {
  const lines: string[] = [];
  if (f.start !== undefined)
    lines.push(`start-run req/s per round: helix ${roundList(f.start.helix)}; floor ${roundList(f.start.floor)}`);
  for (const [name, reads] of [
    ['inspect', f.inspect],
    ['events', f.events],
  ] as const) {
    if (reads === undefined) continue;
    lines.push(
      `${name} req/s per round: helix ${roundList(reads.helix)}; floor ${roundList(reads.floor)} (answers of ${reads.helix.responseBytes} and ${reads.floor.responseBytes} bytes)`,
    );
  }
  if (f.mcp !== undefined) {
    lines.push(
      `MCP-phase req/s per round: MCP ${roundList(f.mcp.mcpInspect)}; REST ${roundList(f.mcp.restInspect)}; MCP floor ${roundList(f.mcp.mcpFloor)}`,
    );
  }
  return lines;
};

export const goalLines = (f: BenchFigures): string[] => {
  const lines: string[] = [];
  if (f.start !== undefined) {
    const ratio = f.start.helix.rps / f.start.floor.rps;
    lines.push(
      `goal: start throughput >= ${GOALS.startRatioMin}x floor: ${metMark(ratio >= GOALS.startRatioMin)} (${ratio.toFixed(2)}x)`,
    );
  }
  if (f.continueTurn !== undefined) {
    const overhead = f.continueTurn.helix.p50Ms - f.continueTurn.floor.p50Ms;
    lines.push(
      `goal: continue overhead p50 <= ${GOALS.continueOverheadP50MaxMs} ms: ${metMark(overhead <= GOALS.continueOverheadP50MaxMs)} (${overhead.toFixed(2)} ms)`,
    );
  }
  for (const [route, reads, min] of [
    ['inspect', f.inspect, GOALS.inspectRatioMin],
    ['events', f.events, GOALS.eventsRatioMin],
  ] as const) {
    if (reads === undefined) continue;
    const ratio = reads.helix.rps / reads.floor.rps;
    lines.push(`goal: ${route} throughput >= ${min}x floor: ${metMark(ratio >= min)} (${ratio.toFixed(2)}x)`);
  }
  if (f.replicas?.kind === 'measured') {
    const ratio = f.replicas.throughput.two.rps / f.replicas.throughput.one.rps;
    lines.push(
      `goal: two replicas >= ${GOALS.replicasRatioMin}x one: ${metMark(ratio >= GOALS.replicasRatioMin)} (${ratio.toFixed(2)}x; CPU per start and the machine's ceiling in the replicas lines)`,
    );
  }
  if (f.mcp !== undefined) {
    const ratio = f.mcp.mcpInspect.rps / f.mcp.restInspect.rps;
    lines.push(
      `goal: MCP inspect throughput >= ${GOALS.mcpRestRatioMin}x REST inspect: ${metMark(ratio >= GOALS.mcpRestRatioMin)} (${ratio.toFixed(2)}x)`,
    );
  }
  if (f.growth !== undefined) lines.push(growthGoalLine(f.growth));
  if (f.soak !== undefined) lines.push(soakGoalLine(f.soak));
  return lines;
};

export const warningLines = (f: BenchFigures): string[] => {
  const lines: string[] = [];
  // The servers and the load generator want the cores to themselves; a load average of one or
  // more before they start means something else is running.
  if (f.loadAverage >= 1)
    lines.push(
      `warning: load average ${f.loadAverage.toFixed(2)} before start; other work on this machine makes these figures noisy`,
    );
  // The bench's own work ends with a load average near 1.5 on two cores; one well past the core
  // count means other work ran alongside the last phases.
  if (f.loadAverageEnd >= f.cpus + 1) {
    lines.push(
      `warning: load average ${f.loadAverageEnd.toFixed(2)} at the end on ${f.cpus} cores; other work ran alongside the bench, and the later phases are noisy`,
    );
  }
  const loads: [string, Throughput | undefined][] = [
    ['helix start', f.start?.helix],
    ['floor start', f.start?.floor],
    ['helix inspect', f.inspect?.helix],
    ['floor inspect', f.inspect?.floor],
    ['helix events', f.events?.helix],
    ['floor events', f.events?.floor],
    ['MCP inspect', f.mcp?.mcpInspect],
    ['REST inspect', f.mcp?.restInspect],
    ['MCP floor', f.mcp?.mcpFloor],
    ['1-replica start', f.replicas?.kind === 'measured' ? f.replicas.throughput.one : undefined],
    ['2-replica start', f.replicas?.kind === 'measured' ? f.replicas.throughput.two : undefined],
  ];
  for (const [name, t] of loads) {
    if (t !== undefined && (t.non2xx > 0 || t.errors > 0))
      lines.push(`warning: ${name} had ${t.non2xx} non-2xx responses and ${t.errors} connection errors`);
  }
  for (const dialect of SEARCH_DIALECTS) {
    for (const size of f.search?.[dialect] ?? []) {
      if (size.kind === 'measured' && size.emptyQueries > 0)
        lines.push(`warning: ${dialect} ${sizeLabel(size.passages)}: ${size.emptyQueries} queries found nothing`);
    }
  }
  const soakFailed = f.soak === undefined ? 0 : Object.values(f.soak.counts.failed).reduce((sum, n) => sum + n, 0);
  if (soakFailed > 0) lines.push(`warning: ${soakFailed} soak requests failed`);
  return lines;
};

/** The phases whose servers run on a fresh SQLite file (replicas runs on PostgreSQL; the rest in process). */
const SQLITE_SERVER_PHASES: readonly Phase[] = ['start', 'continue', 'inspect', 'events', 'mcp', 'soak'];

const section = (lines: readonly string[]): string[] => (lines.length > 0 ? ['', ...lines] : []);

export const renderTable = (f: BenchFigures): string => {
  const servers = serverRows(f);
  const lines = [
    headerLine(f),
    ...(f.phases.some((p) => SQLITE_SERVER_PHASES.includes(p))
      ? [
          'SQLite WAL synchronous=FULL, HTTP on 127.0.0.1; each server in its own child process, load generator in this one',
        ]
      : []),
    ...describeShapes(f),
    ...section(servers.length > 1 ? [textTable(servers)] : []),
    ...section(f.search === undefined ? [] : [textTable(searchRows(f.search)), ...searchSkipLines(f.search)]),
    ...section(f.quality === undefined ? [] : qualityLines(f.quality)),
    ...section(f.growth === undefined ? [] : [textTable(growthRows(f.growth)), ...growthLines(f.growth)]),
    ...section(f.replicas === undefined ? [] : replicasLines(f.replicas)),
    ...section(f.soak === undefined ? [] : soakLines(f.soak)),
    ...section(roundLines(f)),
    ...section(goalLines(f)),
    ...warningLines(f),
  ];
  return `${lines.join('\n')}\n`;
};
