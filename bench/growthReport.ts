/** The growth phase's table, lines and JSON fields (storeGrowth.ts). */
import { GOALS } from './goals.js';
import type { GrowthShape, StoreGrowth } from './storeGrowth.js';
import { metMark, round, sizeLabel, type Rows } from './tables.js';

export const describeGrowth = (shape: GrowthShape): string =>
  `growth: in-process SQLite store (Helix's migrations and pragmas), grown to ${shape.runCounts.map(sizeLabel).join(' / ')} runs with ${shape.eventsPerRun} events each, ` +
  `rows copied from a real Helix run; at each size ${shape.warmupSamples} warm-up + ${shape.samples} measured store.read.runs.get(id) and ` +
  `store.read.events.list(id, 0, ${shape.pageLimit}) of random existing runs, 1 caller; population budget ${shape.populateBudgetSeconds} s`;

export const growthRows = (g: StoreGrowth): Rows => {
  const rows: string[][] = [
    [
      'store growth (SQLite)',
      'runs',
      'events',
      'populate (s)',
      'DB (MB)',
      'runs.get p50 (ms)',
      'p99 (ms)',
      'events.list p50 (ms)',
      'p99 (ms)',
    ],
  ];
  for (const size of g.sizes) {
    const name = `${sizeLabel(size.runs)} runs / ${sizeLabel(size.events)} events`;
    if (size.kind === 'skipped')
      rows.push([name, String(size.runs), String(size.events), 'skipped', '-', '-', '-', '-', '-']);
    else {
      rows.push([
        name,
        String(size.runs),
        String(size.events),
        size.populateSeconds.toFixed(1),
        (size.databaseBytes / 1e6).toFixed(0),
        size.runGet.p50Ms.toFixed(3),
        size.runGet.p99Ms.toFixed(3),
        size.eventsList.p50Ms.toFixed(3),
        size.eventsList.p99Ms.toFixed(3),
      ]);
    }
  }
  return rows;
};

const measuredRange = (g: StoreGrowth): string => {
  const measured = g.sizes.filter((s) => s.kind === 'measured');
  return `${sizeLabel(measured.at(-1)?.runs ?? 0)} runs vs ${sizeLabel(measured[0]?.runs ?? 0)}`;
};

export const growthLines = (g: StoreGrowth): string[] => [
  `growth p50 ratio, ${measuredRange(g)}: runs.get ${g.runGetRatio.toFixed(2)}x, events.list ${g.eventsListRatio.toFixed(2)}x`,
  ...g.sizes.flatMap((s) => (s.kind === 'skipped' ? [`growth ${sizeLabel(s.runs)} runs skipped: ${s.reason}`] : [])),
];

export const growthMet = (g: StoreGrowth): boolean =>
  g.runGetRatio <= GOALS.growthP50RatioMax && g.eventsListRatio <= GOALS.growthP50RatioMax;

export const growthGoalLine = (g: StoreGrowth): string =>
  `goal: inspect/events store reads stay flat as the store grows (p50 ratio <= ${GOALS.growthP50RatioMax}x, ${measuredRange(g)}): ` +
  `${metMark(growthMet(g))} (runs.get ${g.runGetRatio.toFixed(2)}x, events.list ${g.eventsListRatio.toFixed(2)}x)`;

export const growthFields = (g: StoreGrowth, shape: GrowthShape) => {
  const fields: Record<string, number | string | boolean> = {
    growth_samples: shape.samples,
    growth_events_per_run: shape.eventsPerRun,
  };
  for (const size of g.sizes) {
    const key = `growth_${sizeLabel(size.runs)}`;
    if (size.kind === 'skipped') {
      fields[`${key}_skipped`] = size.reason;
      continue;
    }
    fields[`${key}_populate_s`] = round(size.populateSeconds, 1);
    fields[`${key}_db_mb`] = round(size.databaseBytes / 1e6, 0);
    fields[`${key}_run_get_p50_ms`] = round(size.runGet.p50Ms, 4);
    fields[`${key}_run_get_p99_ms`] = round(size.runGet.p99Ms, 4);
    fields[`${key}_events_list_p50_ms`] = round(size.eventsList.p50Ms, 4);
    fields[`${key}_events_list_p99_ms`] = round(size.eventsList.p99Ms, 4);
  }
  fields.growth_run_get_ratio = round(g.runGetRatio, 3);
  fields.growth_events_list_ratio = round(g.eventsListRatio, 3);
  fields.goal_growth_p50_ratio_max = GOALS.growthP50RatioMax;
  fields.goal_growth_met = growthMet(g);
  return fields;
};
