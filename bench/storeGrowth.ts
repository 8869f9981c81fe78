/**
 * Cost growth: does reading one run get slower as the store fills? In this process, a SQLite store
 * (openStore, Helix's own migrations and pragmas) is grown in place through each size of the shape
 * (10k runs / 100k events, then 100k / 1M, then 1M / 10M), and at each size the two reads behind
 * inspect and events are timed through Helix's repositories, one call at a time, for random
 * existing runs: `store.read.runs.get(id)` and `store.read.events.list(id, 0, 50)`.
 *
 * Populating goes around Helix on purpose: raw better-sqlite3 inserts on a second connection,
 * in large transactions with synchronous=OFF, copying one real run's rows (growthTemplate.ts)
 * under new ids. Only the reads are measured, and they go through Helix's code on its usual
 * connection. A size whose population would pass the budget, or would not fit on the disk, is
 * reported as skipped before it starts, from the rate measured on the sizes before it.
 */
import { mkdtemp, rm, stat, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { openStore } from '../src/store/openStore.js';
import type { Store } from '../src/store/port.js';
import { captureRunTemplate, type RunTemplate } from './growthTemplate.js';
import { summarizeLatency, type LatencySummary } from './percentile.js';

export interface GrowthShape {
  /** Store sizes in runs, ascending; each run has `eventsPerRun` events. */
  readonly runCounts: readonly number[];
  readonly eventsPerRun: number;
  readonly runsPerTransaction: number;
  /** Random existing runs read per size and per read, after as many warm-up reads. */
  readonly warmupSamples: number;
  readonly samples: number;
  /** The page size the events read asks for, as GET …/events?limit=50 does. */
  readonly pageLimit: number;
  /** Populating all sizes together may take this long; a size projected to pass it is skipped. */
  readonly populateBudgetSeconds: number;
  readonly seed: number;
}

export type GrowthSize =
  | {
      readonly kind: 'measured';
      readonly runs: number;
      readonly events: number;
      /** Seconds spent populating up to this size, from empty. */
      readonly populateSeconds: number;
      /** The database file and its WAL. */
      readonly databaseBytes: number;
      readonly runGet: LatencySummary;
      readonly eventsList: LatencySummary;
    }
  | { readonly kind: 'skipped'; readonly runs: number; readonly events: number; readonly reason: string };

export interface StoreGrowth {
  readonly sizes: readonly GrowthSize[];
  /** p50 at the largest measured size over p50 at the smallest; 1 is perfectly flat. */
  readonly runGetRatio: number;
  readonly eventsListRatio: number;
}

// fmix32 (MurmurHash3's finalizer) is a bijection on 32-bit integers, so ids built from it are
// unique per index, yet land all over the primary-key index as random run ids do.
const fmix32 = (x: number): number => {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};
const hex8 = (n: number): string => n.toString(16).padStart(8, '0');
/** `run_` + 22 characters, the length of Helix's own run ids. */
const runIdOf = (index: number): string =>
  `run_${hex8(fmix32(index))}${hex8(fmix32(index ^ 0x5bd1e995))}${index.toString(36).padStart(6, '0')}`;
const OWNERS = 1000;
const ownerHashOf = (index: number): string => hex8(fmix32((index % OWNERS) + 0x9e3779b9)).repeat(8);

/** mulberry32: a seeded generator, so every run of the bench reads the same runs. */
const random = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** Appends runs [from, to) with their events, one transaction at a time, until `deadline` (performance.now()); returns the runs reached. */
type Populate = (from: number, to: number, deadline: number) => Promise<number>;

const populator = (db: Database.Database, template: RunTemplate, shape: GrowthShape): Populate => {
  const columns = Object.keys(template.run);
  const insertRun = db.prepare(
    `insert into helix_agent_runs (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
  );
  const events = template.events.slice(0, shape.eventsPerRun);
  // All of a run's events in one statement: a tenth of the statements, the same rows.
  const insertEvents = db.prepare(
    `insert into helix_agent_run_events (run_id, seq, kind, version, data, created_at) values ${events.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
  );
  const eventValues = events.flatMap((e) => [null, e.seq, e.kind, e.version, e.data, null]);
  const values = columns.map((c) => template.run[c] ?? null);
  const at = (name: string): number => {
    const index = columns.indexOf(name);
    if (index < 0) throw new Error(`growth: the template run has no ${name} column`);
    return index;
  };
  const [idAt, ownerAt, createdAt, updatedAt, lastSeqAt] = [
    at('run_id'),
    at('owner_hash'),
    at('created_at'),
    at('updated_at'),
    at('last_event_seq'),
  ];
  const baseTime = Number(template.run.created_at);
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const runId = runIdOf(i);
      const created = baseTime + i;
      values[idAt] = runId;
      values[ownerAt] = ownerHashOf(i);
      values[createdAt] = created;
      values[updatedAt] = created;
      values[lastSeqAt] = events.length;
      insertRun.run(values);
      for (let e = 0; e < events.length; e++) {
        eventValues[e * 6] = runId;
        eventValues[e * 6 + 5] = created;
      }
      insertEvents.run(eventValues);
    }
  });
  return async (from, to, deadline) => {
    let reached = from;
    while (reached < to && performance.now() < deadline) {
      const end = Math.min(to, reached + shape.runsPerTransaction);
      batch(reached, end);
      reached = end;
      await yieldToLoop();
    }
    return reached;
  };
};

const timeReads = async (store: Store, runs: number, shape: GrowthShape) => {
  const next = random(shape.seed + runs);
  const pick = () => runIdOf(Math.floor(next() * runs));
  const runGet: number[] = [];
  const eventsList: number[] = [];
  for (let i = 0; i < shape.warmupSamples + shape.samples; i++) {
    const runId = pick();
    let t0 = performance.now();
    const run = await store.read.runs.get(runId);
    const getMs = performance.now() - t0;
    t0 = performance.now();
    const page = await store.read.events.list(runId, 0, shape.pageLimit);
    const listMs = performance.now() - t0;
    if (run?.runId !== runId || page.length !== shape.eventsPerRun)
      throw new Error(`growth: run ${runId} read back wrong (${page.length} events)`);
    if (i < shape.warmupSamples) continue;
    runGet.push(getMs);
    eventsList.push(listMs);
  }
  return { runGet: summarizeLatency(runGet), eventsList: summarizeLatency(eventsList) };
};

const fileBytes = async (path: string): Promise<number> => (await stat(path).catch(() => ({ size: 0 }))).size;

/** Why the next size cannot be populated, or undefined when it can. */
const reasonToSkip = async (
  dir: string,
  shape: GrowthShape,
  done: { runs: number; seconds: number; bytes: number },
  target: number,
) => {
  if (done.runs === 0) return undefined;
  const more = target - done.runs;
  // The rate falls as the indexes outgrow the cache (by about 1.4x from 100k to 1M runs), hence the margin.
  const projected = (done.seconds / done.runs) * more * 1.5;
  if (done.seconds + projected > shape.populateBudgetSeconds) {
    return `populating would take about ${Math.round(done.seconds + projected)} s in all at the rate measured so far, past the ${shape.populateBudgetSeconds} s budget`;
  }
  const free = await statfs(dir).then((s) => s.bavail * s.bsize);
  const needed = (done.bytes / done.runs) * more * 1.5;
  if (needed > free)
    return `needs about ${(needed / 1e9).toFixed(1)} GB on ${tmpdir()}, ${(free / 1e9).toFixed(1)} GB free`;
  return undefined;
};

export const measureStoreGrowth = async (
  shape: GrowthShape,
  progress: (message: string) => void,
): Promise<StoreGrowth> => {
  const template = await captureRunTemplate(shape.eventsPerRun);
  progress(
    `  template: a real run row (state ${String(template.run.state).length} characters) and ${template.events.length} of its events`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'helix-bench-growth-'));
  const path = join(dir, 'growth.db');
  const sizes: GrowthSize[] = [];
  let store: Store | undefined;
  let db: Database.Database | undefined;
  try {
    store = await openStore(path);
    db = new Database(path);
    // Population only: durability does not matter for a throwaway file, and a large cache keeps
    // the growing indexes in memory. Helix's own connection (the one measured) keeps its pragmas.
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -1000000');
    const populate = populator(db, template, shape);
    const done = { runs: 0, seconds: 0, bytes: 0 };
    for (const runs of shape.runCounts) {
      const events = runs * shape.eventsPerRun;
      const reason = await reasonToSkip(dir, shape, done, runs);
      if (reason !== undefined) {
        progress(`    ${runs} runs skipped: ${reason}`);
        sizes.push({ kind: 'skipped', runs, events, reason });
        continue;
      }
      const t0 = performance.now();
      const reached = await populate(done.runs, runs, t0 + (shape.populateBudgetSeconds - done.seconds) * 1000);
      db.pragma('wal_checkpoint(TRUNCATE)');
      done.seconds += (performance.now() - t0) / 1000;
      done.runs = reached;
      if (reached < runs) {
        // The projection was wrong: stop here rather than run past the budget; larger sizes are not tried.
        const reason = `populating passed the ${shape.populateBudgetSeconds} s budget at ${reached} of ${runs} runs`;
        progress(`    ${runs} runs skipped: ${reason}`);
        for (const skipped of shape.runCounts.filter((n) => n >= runs))
          sizes.push({ kind: 'skipped', runs: skipped, events: skipped * shape.eventsPerRun, reason });
        break;
      }
      done.bytes = (await fileBytes(path)) + (await fileBytes(`${path}-wal`));
      progress(
        `    ${runs} runs, ${events} events populated, ${done.seconds.toFixed(1)} s, ${(done.bytes / 1e6).toFixed(0)} MB`,
      );
      const { runGet, eventsList } = await timeReads(store, runs, shape);
      progress(
        `    at ${runs} runs: runs.get p50 ${runGet.p50Ms.toFixed(3)} ms, events.list p50 ${eventsList.p50Ms.toFixed(3)} ms`,
      );
      sizes.push({
        kind: 'measured',
        runs,
        events,
        populateSeconds: done.seconds,
        databaseBytes: done.bytes,
        runGet,
        eventsList,
      });
    }
  } finally {
    db?.close();
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  }
  const measured = sizes.flatMap((s) => (s.kind === 'measured' ? [s] : []));
  const [first, last] = [measured[0], measured.at(-1)];
  if (first === undefined || last === undefined) throw new Error('growth: no size was measured');
  return {
    sizes,
    runGetRatio: last.runGet.p50Ms / first.runGet.p50Ms,
    eventsListRatio: last.eventsList.p50Ms / first.eventsList.p50Ms,
  };
};
