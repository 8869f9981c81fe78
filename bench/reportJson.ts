/**
 * The bench's JSON line: flat keys (such as `search_sqlite_100k_p50_ms`), so a tracker can plot one
 * series per key. Keys of a phase that did not run are absent.
 */
import { GOALS } from './goals.js';
import { growthFields } from './growthReport.js';
import type { McpThroughput } from './mcpThroughput.js';
import type { ReadTarget, ReadThroughput } from './readThroughput.js';
import { replicasFields } from './replicasReport.js';
import type { BenchFigures } from './report.js';
import { SEARCH_DIALECTS, type SearchLatency, type SearchShape } from './searchLatency.js';
import { soakFields } from './soakReport.js';
import { round, sizeLabel } from './tables.js';
import type { LoadShape } from './throughputRounds.js';

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

const READ_GOALS = { inspect: GOALS.inspectRatioMin, events: GOALS.eventsRatioMin } as const;

/** `inspect_rps`, `events_floor_rps`, …: one read route beside its floor. */
const readFields = (name: 'inspect' | 'events', reads: Readonly<Record<ReadTarget, ReadThroughput>>) => ({
  [`${name}_rps`]: round(reads.helix.rps, 1),
  [`${name}_floor_rps`]: round(reads.floor.rps, 1),
  [`${name}_ratio`]: round(reads.helix.rps / reads.floor.rps, 3),
  [`${name}_round_rps`]: reads.helix.roundRps.map((r) => round(r, 1)),
  [`${name}_floor_round_rps`]: reads.floor.roundRps.map((r) => round(r, 1)),
  [`${name}_response_bytes`]: reads.helix.responseBytes,
  [`${name}_floor_response_bytes`]: reads.floor.responseBytes,
  [`${name}_non2xx`]: reads.helix.non2xx,
  [`${name}_floor_non2xx`]: reads.floor.non2xx,
  [`goal_${name}_ratio_min`]: READ_GOALS[name],
  [`goal_${name}_met`]: reads.helix.rps / reads.floor.rps >= READ_GOALS[name],
});

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
    seconds: Math.round(f.seconds),
    phases: f.phases,
    ...(f.start === undefined ? {} : startFields(f.start, f.load)),
    ...(f.continueTurn === undefined ? {} : continueFields(f.continueTurn)),
    ...(f.inspect === undefined ? {} : readFields('inspect', f.inspect)),
    ...(f.events === undefined ? {} : readFields('events', f.events)),
    ...(f.mcp === undefined ? {} : mcpFields(f.mcp, f.load)),
    ...(f.search === undefined ? {} : searchFields(f.search, f.searchShape)),
    ...(f.quality === undefined
      ? {}
      : {
          quality_queries: f.quality.queries,
          quality_recall_at_5_sqlite: round(f.quality.recall.sqlite, 3),
          quality_recall_at_5_pglite: round(f.quality.recall.pglite, 3),
        }),
    ...(f.growth === undefined ? {} : growthFields(f.growth, f.growthShape)),
    ...(f.replicas === undefined ? {} : replicasFields(f.replicas)),
    ...(f.soak === undefined ? {} : soakFields(f.soak)),
  })}\n`;
