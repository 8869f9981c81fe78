/**
 * The bench's output: a table for people, then one JSON line (always the last line of stdout) for
 * tools that track the figures over time. Goals are reported, never asserted: a missed goal is a
 * finding, not a failure of the bench. A phase left out with `--only` leaves out its rows and its
 * JSON fields; `phases` in the JSON line says which ran.
 */
import type { ContinueLatency, ContinueShape, ContinueTarget } from './continueLatency.js';
import type { McpThroughput } from './mcpThroughput.js';
import { SEARCH_DIALECTS, type SearchLatency, type SearchShape } from './searchLatency.js';
import type { SearchQuality } from './searchQuality.js';
import type { StartTarget } from './startThroughput.js';
import type { LoadShape, Throughput } from './throughputRounds.js';

export const PHASES = ['start', 'continue', 'mcp', 'search', 'quality'] as const;
export type Phase = (typeof PHASES)[number];

/** The goals the benchmark issues set. */
export const GOALS = {
  /** Helix start throughput must reach at least this fraction of the floor's. */
  startRatioMin: 0.5,
  /** Helix continue p50 may exceed the floor's p50 by at most this many milliseconds. */
  continueOverheadP50MaxMs: 3,
  /** MCP inspect throughput must reach at least this fraction of REST inspect's, on the same server. */
  mcpRestRatioMin: 0.5,
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
  /** One-minute load average when the last phase ends, the bench's own work included. */
  readonly loadAverageEnd: number;
  readonly phases: readonly Phase[];
  readonly load: LoadShape;
  readonly continueShape: ContinueShape;
  readonly searchShape: SearchShape;
  readonly start?: Readonly<Record<StartTarget, Throughput>>;
  readonly continueTurn?: Readonly<Record<ContinueTarget, ContinueLatency>>;
  readonly mcp?: McpThroughput;
  readonly search?: SearchLatency;
  readonly quality?: SearchQuality;
}

const round = (n: number, digits: number): number => Number(n.toFixed(digits));
const metMark = (met: boolean) => (met ? 'MET' : 'NOT MET');
/** 10000 -> "10k": the library sizes as the JSON keys and the table name them. */
const sizeLabel = (passages: number): string => (passages % 1000 === 0 ? `${passages / 1000}k` : String(passages));

const table = (rows: readonly (readonly string[])[]): string => {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => row[col]?.length ?? 0))) ?? [];
  return rows
    .map((row) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0))).join('   '))
    .join('\n');
};

const roundList = (t: Throughput): string => t.roundRps.map((r) => r.toFixed(0)).join(', ');

const describeShapes = (f: BenchFigures): string[] => {
  const lines: string[] = [];
  const autocannonShape = `${f.load.connections} connections, ${f.load.warmupSeconds} s warm-up + ${f.load.rounds} x ${f.load.roundSeconds} s measured per target`;
  if (f.start !== undefined) lines.push(`start: ${autocannonShape}`);
  if (f.continueTurn !== undefined) {
    lines.push(`continue: 1 client, ${f.continueShape.warmupContinues} warm-up + ${f.continueShape.measuredContinues} measured turns per target`);
  }
  if (f.mcp !== undefined) lines.push(`mcp: ${autocannonShape}; one run inspected throughout; MCP floor = bare SDK Server per request, one constant tool`);
  if (f.search !== undefined) {
    const s = f.searchShape;
    lines.push(
      `search: in-process store.read.library.search(terms, ${s.limit}), 1 caller, ${s.warmupQueries} warm-up + ${s.measuredQueries} measured queries of 2-5 terms; ` +
        `synthetic Zipf-distributed English-like text, ${s.passagesPerDocument} passages per document, ${s.documentsPerTransaction} documents per transaction`,
    );
  }
  return lines;
};

const serverTable = (f: BenchFigures): string[] => {
  const rows: string[][] = [['metric', 'helix', 'floor', 'helix/floor']];
  if (f.start !== undefined) {
    const { helix, floor } = f.start;
    rows.push(['start-run throughput (req/s)', helix.rps.toFixed(1), floor.rps.toFixed(1), (helix.rps / floor.rps).toFixed(2)]);
  }
  if (f.continueTurn !== undefined) {
    const { helix, floor } = f.continueTurn;
    rows.push(['continue latency p50 (ms)', helix.p50Ms.toFixed(2), floor.p50Ms.toFixed(2), (helix.p50Ms / floor.p50Ms).toFixed(2)]);
    rows.push(['continue latency p99 (ms)', helix.p99Ms.toFixed(2), floor.p99Ms.toFixed(2), (helix.p99Ms / floor.p99Ms).toFixed(2)]);
  }
  if (f.mcp !== undefined) {
    const { mcpInspect, restInspect, mcpFloor } = f.mcp;
    rows.push(['MCP tools/call helix_run_inspect (req/s)', mcpInspect.rps.toFixed(1), mcpFloor.rps.toFixed(1), (mcpInspect.rps / mcpFloor.rps).toFixed(2)]);
    rows.push(['REST GET agent-runs/{id} (req/s)', restInspect.rps.toFixed(1), '-', '-']);
  }
  return rows.length > 1 ? [table(rows)] : [];
};

const searchTable = (f: BenchFigures): string[] => {
  if (f.search === undefined) return [];
  const rows: string[][] = [['library search', 'passages', 'populate (s)', 'p50 (ms)', 'p99 (ms)', 'mean (ms)', 'empty']];
  for (const dialect of SEARCH_DIALECTS) {
    for (const size of f.search[dialect]) {
      const name = `${dialect === 'sqlite' ? 'SQLite FTS5' : 'PostgreSQL (PGlite)'} ${sizeLabel(size.passages)}`;
      if (size.kind === 'skipped') rows.push([name, String(size.passages), 'skipped', '-', '-', '-', '-']);
      else {
        const { latency } = size;
        rows.push([name, String(size.passages), size.populateSeconds.toFixed(1), latency.p50Ms.toFixed(2), latency.p99Ms.toFixed(2), latency.meanMs.toFixed(2), String(size.emptyQueries)]);
      }
    }
  }
  const skipped = SEARCH_DIALECTS.flatMap((d) => (f.search?.[d] ?? []).flatMap((s) => (s.kind === 'skipped' ? [`${d} ${sizeLabel(s.passages)} skipped: ${s.reason}`] : [])));
  return ['', table(rows), ...skipped];
};

const roundLines = (f: BenchFigures): string[] => {
  const lines: string[] = [];
  if (f.start !== undefined) lines.push(`start-run req/s per round: helix ${roundList(f.start.helix)}; floor ${roundList(f.start.floor)}`);
  if (f.mcp !== undefined) {
    lines.push(`inspect req/s per round: MCP ${roundList(f.mcp.mcpInspect)}; REST ${roundList(f.mcp.restInspect)}; MCP floor ${roundList(f.mcp.mcpFloor)}`);
  }
  return lines.length > 0 ? ['', ...lines] : [];
};

const goalLines = (f: BenchFigures): string[] => {
  const lines: string[] = [];
  if (f.start !== undefined) {
    const ratio = f.start.helix.rps / f.start.floor.rps;
    lines.push(`goal: start throughput >= ${GOALS.startRatioMin}x floor: ${metMark(ratio >= GOALS.startRatioMin)} (${ratio.toFixed(2)}x)`);
  }
  if (f.continueTurn !== undefined) {
    const overhead = f.continueTurn.helix.p50Ms - f.continueTurn.floor.p50Ms;
    lines.push(`goal: continue overhead p50 <= ${GOALS.continueOverheadP50MaxMs} ms: ${metMark(overhead <= GOALS.continueOverheadP50MaxMs)} (${overhead.toFixed(2)} ms)`);
  }
  if (f.mcp !== undefined) {
    const ratio = f.mcp.mcpInspect.rps / f.mcp.restInspect.rps;
    lines.push(`goal: MCP inspect throughput >= ${GOALS.mcpRestRatioMin}x REST inspect: ${metMark(ratio >= GOALS.mcpRestRatioMin)} (${ratio.toFixed(2)}x)`);
  }
  return lines.length > 0 ? ['', ...lines] : [];
};

const warningLines = (f: BenchFigures): string[] => {
  const lines: string[] = [];
  // The servers and the load generator want the cores to themselves; a load average of one or
  // more before they start means something else is running.
  if (f.loadAverage >= 1) lines.push(`warning: load average ${f.loadAverage.toFixed(2)} before start; other work on this machine makes these figures noisy`);
  const loads: [string, Throughput | undefined][] = [
    ['helix start', f.start?.helix],
    ['floor start', f.start?.floor],
    ['MCP inspect', f.mcp?.mcpInspect],
    ['REST inspect', f.mcp?.restInspect],
    ['MCP floor', f.mcp?.mcpFloor],
  ];
  for (const [name, t] of loads) {
    if (t !== undefined && (t.non2xx > 0 || t.errors > 0)) lines.push(`warning: ${name} had ${t.non2xx} non-2xx responses and ${t.errors} connection errors`);
  }
  for (const dialect of SEARCH_DIALECTS) {
    for (const size of f.search?.[dialect] ?? []) {
      if (size.kind === 'measured' && size.emptyQueries > 0) lines.push(`warning: ${dialect} ${sizeLabel(size.passages)}: ${size.emptyQueries} queries found nothing`);
    }
  }
  return lines;
};

const qualityLines = (f: BenchFigures): string[] => {
  const q = f.quality;
  if (q === undefined) return [];
  const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
  return [
    '',
    `search quality: recall@${q.k} of ${q.queries} labelled questions over docs/ (${q.documents} documents), bench/fixtures/library-queries.json`,
    `  sqlite ${percent(q.recall.sqlite)}, pglite ${percent(q.recall.pglite)}`,
    ...[...new Set([...q.misses.sqlite, ...q.misses.pglite])].map(
      (m) => `  missed (${[q.misses.sqlite.includes(m) ? 'sqlite' : '', q.misses.pglite.includes(m) ? 'pglite' : ''].filter((d) => d !== '').join(', ')}): ${m}`,
    ),
  ];
};

export const renderTable = (f: BenchFigures): string => {
  const lines = [
    `Helix bench: ${f.date.toISOString()}, node ${f.node}, ${f.cpus} x ${f.cpuModel}, ` +
      `load average ${f.loadAverage.toFixed(2)} before start, ${f.loadAverageEnd.toFixed(2)} at the end; phases: ${f.phases.join(', ')}`,
    ...(f.phases.some((p) => p !== 'search' && p !== 'quality')
      ? ['SQLite WAL synchronous=FULL, HTTP on 127.0.0.1; each server in its own child process, load generator in this one']
      : []),
    ...describeShapes(f),
    '',
    ...serverTable(f),
    ...searchTable(f),
    ...qualityLines(f),
    ...roundLines(f),
    ...goalLines(f),
    ...warningLines(f),
  ];
  return `${lines.join('\n')}\n`;
};

const startFields = (start: NonNullable<BenchFigures['start']>, load: LoadShape) => {
  const ratio = start.helix.rps / start.floor.rps;
  return {
    start_connections: load.connections,
    start_measured_s: load.rounds * load.roundSeconds,
    start_rps: round(start.helix.rps, 1),
    start_floor_rps: round(start.floor.rps, 1),
    start_ratio: round(ratio, 3),
    start_round_rps: start.helix.roundRps.map((r) => round(r, 1)),
    start_floor_round_rps: start.floor.roundRps.map((r) => round(r, 1)),
    start_non2xx: start.helix.non2xx,
    start_floor_non2xx: start.floor.non2xx,
    goal_start_ratio_min: GOALS.startRatioMin,
    goal_start_met: ratio >= GOALS.startRatioMin,
  };
};

const continueFields = (c: NonNullable<BenchFigures['continueTurn']>) => {
  const overhead = c.helix.p50Ms - c.floor.p50Ms;
  return {
    continue_samples: c.helix.samples,
    continue_p50_ms: round(c.helix.p50Ms, 3),
    continue_p99_ms: round(c.helix.p99Ms, 3),
    continue_floor_p50_ms: round(c.floor.p50Ms, 3),
    continue_floor_p99_ms: round(c.floor.p99Ms, 3),
    continue_overhead_p50_ms: round(overhead, 3),
    goal_continue_overhead_p50_max_ms: GOALS.continueOverheadP50MaxMs,
    goal_continue_met: overhead <= GOALS.continueOverheadP50MaxMs,
  };
};

const mcpFields = (m: McpThroughput, load: LoadShape) => {
  const restRatio = m.mcpInspect.rps / m.restInspect.rps;
  return {
    mcp_connections: load.connections,
    mcp_measured_s: load.rounds * load.roundSeconds,
    mcp_inspect_rps: round(m.mcpInspect.rps, 1),
    rest_inspect_rps: round(m.restInspect.rps, 1),
    mcp_floor_rps: round(m.mcpFloor.rps, 1),
    mcp_rest_ratio: round(restRatio, 3),
    mcp_floor_ratio: round(m.mcpInspect.rps / m.mcpFloor.rps, 3),
    mcp_inspect_round_rps: m.mcpInspect.roundRps.map((r) => round(r, 1)),
    rest_inspect_round_rps: m.restInspect.roundRps.map((r) => round(r, 1)),
    mcp_floor_round_rps: m.mcpFloor.roundRps.map((r) => round(r, 1)),
    mcp_inspect_non2xx: m.mcpInspect.non2xx,
    rest_inspect_non2xx: m.restInspect.non2xx,
    mcp_floor_non2xx: m.mcpFloor.non2xx,
    goal_mcp_rest_ratio_min: GOALS.mcpRestRatioMin,
    goal_mcp_met: restRatio >= GOALS.mcpRestRatioMin,
  };
};

/** Flat keys such as `search_sqlite_100k_p50_ms`, so a tracker can plot one series per key. */
const searchFields = (s: SearchLatency, shape: SearchShape) => {
  const fields: Record<string, number | string> = { search_queries: shape.measuredQueries, search_limit: shape.limit };
  for (const dialect of SEARCH_DIALECTS) {
    for (const size of s[dialect]) {
      const key = `search_${dialect}_${sizeLabel(size.passages)}`;
      if (size.kind === 'skipped') {
        fields[`${key}_skipped`] = size.reason;
        continue;
      }
      fields[`${key}_p50_ms`] = round(size.latency.p50Ms, 3);
      fields[`${key}_p99_ms`] = round(size.latency.p99Ms, 3);
      fields[`${key}_populate_s`] = round(size.populateSeconds, 1);
      fields[`${key}_empty_queries`] = size.emptyQueries;
    }
  }
  return fields;
};

export const renderJsonLine = (f: BenchFigures): string =>
  `${JSON.stringify({
    bench: 'helix',
    date: f.date.toISOString(),
    node: f.node,
    cpus: f.cpus,
    cpu_model: f.cpuModel,
    load_average: round(f.loadAverage, 2),
    load_average_end: round(f.loadAverageEnd, 2),
    phases: f.phases,
    ...(f.start === undefined ? {} : startFields(f.start, f.load)),
    ...(f.continueTurn === undefined ? {} : continueFields(f.continueTurn)),
    ...(f.mcp === undefined ? {} : mcpFields(f.mcp, f.load)),
    ...(f.search === undefined ? {} : searchFields(f.search, f.searchShape)),
    ...(f.quality === undefined
      ? {}
      : {
          quality_queries: f.quality.queries,
          quality_recall_at_5_sqlite: round(f.quality.recall.sqlite, 3),
          quality_recall_at_5_pglite: round(f.quality.recall.pglite, 3),
        }),
  })}\n`;
