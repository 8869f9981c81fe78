/**
 * Research-library search latency: `store.read.library.search({ terms, phrases: [] }, limit)` timed in this process,
 * one query at a time, against each dialect's real engine (SQLite FTS5 in a WAL file, PostgreSQL's
 * tsvector/GIN in PGlite), at each library size. A library grows in place from one size to the next,
 * through the same `replaceDocument` transactions `helix library add` commits, and every
 * (dialect, size) answers the same queries from the same synthetic corpus (syntheticCorpus.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { createPgliteDialect } from '../src/store/dialects/pglite.js';
import { KyselyStore } from '../src/store/kyselyStore.js';
import { openStore } from '../src/store/openStore.js';
import type { Store } from '../src/store/port.js';
import { summarizeLatency, type LatencySummary } from './percentile.js';
import { syntheticCorpus } from './syntheticCorpus.js';

export const SEARCH_DIALECTS = ['sqlite', 'postgres'] as const;
export type SearchDialect = (typeof SEARCH_DIALECTS)[number];

export interface SearchShape {
  /** Library sizes measured, ascending; each is a multiple of `passagesPerDocument`. */
  readonly passageCounts: readonly number[];
  readonly passagesPerDocument: number;
  /** Documents committed per transaction while populating. */
  readonly documentsPerTransaction: number;
  readonly warmupQueries: number;
  readonly measuredQueries: number;
  /** Hits asked for, as the library tool asks. */
  readonly limit: number;
  /** Populating one dialect past this many seconds stops it; its larger sizes are reported as skipped. */
  readonly populateBudgetSeconds: number;
  readonly seed: number;
}

export type SizeResult =
  | {
      readonly kind: 'measured';
      readonly passages: number;
      /** Seconds spent populating this dialect's library up to this size, from empty. */
      readonly populateSeconds: number;
      readonly latency: LatencySummary;
      /** Measured queries that found nothing: a search bench that finds nothing measures nothing. */
      readonly emptyQueries: number;
    }
  | { readonly kind: 'skipped'; readonly passages: number; readonly reason: string };

export type SearchLatency = Record<SearchDialect, readonly SizeResult[]>;

interface OpenedLibrary {
  readonly store: Store;
  /** The engine as the progress lines name it. */
  readonly engine: string;
  close(): Promise<void>;
}

const openLibrary = async (dialect: SearchDialect): Promise<OpenedLibrary> => {
  if (dialect === 'postgres') {
    const store = new KyselyStore('postgres', createPgliteDialect(new PGlite()));
    await store.migrate();
    return { store, engine: 'PGlite (in-process PostgreSQL, in memory)', close: () => store.close() };
  }
  const dir = await mkdtemp(join(tmpdir(), 'helix-bench-search-'));
  const store = await openStore(join(dir, 'library.db'));
  return {
    store,
    engine: 'better-sqlite3 file, WAL',
    close: () => store.close().finally(() => rm(dir, { recursive: true, force: true })),
  };
};

const timeQueries = async (store: Store, queries: readonly (readonly string[])[], limit: number) => {
  const samples: number[] = [];
  let emptyQueries = 0;
  for (const terms of queries) {
    const t0 = performance.now();
    const hits = await store.read.library.search({ terms, phrases: [] }, limit);
    samples.push(performance.now() - t0);
    if (hits.length === 0) emptyQueries++;
  }
  return { samples, emptyQueries };
};

const measureDialect = async (
  dialect: SearchDialect,
  shape: SearchShape,
  progress: (message: string) => void,
): Promise<SizeResult[]> => {
  const corpus = syntheticCorpus(shape.seed);
  const queries = corpus.queries(shape.warmupQueries + shape.measuredQueries);
  const library = await openLibrary(dialect);
  const results: SizeResult[] = [];
  try {
    progress(`  ${dialect}: ${library.engine}`);
    const started = performance.now();
    let documents = 0;
    for (const target of shape.passageCounts) {
      const targetDocuments = Math.ceil(target / shape.passagesPerDocument);
      let overBudget = false;
      while (documents < targetDocuments && !overBudget) {
        const batch = Array.from(
          { length: Math.min(shape.documentsPerTransaction, targetDocuments - documents) },
          (_, i) => corpus.document(documents + i, shape.passagesPerDocument),
        );
        await library.store.transaction(async (uow) => {
          for (const { document, passages } of batch) await uow.library.replaceDocument(document, passages);
        });
        documents += batch.length;
        const elapsed = (performance.now() - started) / 1000;
        overBudget = elapsed > shape.populateBudgetSeconds && documents < targetDocuments;
        if (documents % (shape.documentsPerTransaction * 10) === 0 || documents === targetDocuments || overBudget) {
          progress(
            `    ${dialect}: ${documents * shape.passagesPerDocument} passages indexed, ${elapsed.toFixed(1)} s`,
          );
        }
      }
      if (overBudget) {
        const reached = documents * shape.passagesPerDocument;
        const reason = `populating passed the ${shape.populateBudgetSeconds} s budget at ${reached} of ${target} passages`;
        progress(`    ${dialect}: ${target} passages skipped: ${reason}`);
        for (const passages of shape.passageCounts.filter((n) => n >= target))
          results.push({ kind: 'skipped', passages, reason });
        break;
      }
      const populateSeconds = (performance.now() - started) / 1000;
      const counted = await library.store.read.library.countPassages();
      if (counted !== documents * shape.passagesPerDocument)
        throw new Error(`${dialect}: expected ${documents * shape.passagesPerDocument} passages, found ${counted}`);
      await timeQueries(library.store, queries.slice(0, shape.warmupQueries), shape.limit);
      const measured = await timeQueries(library.store, queries.slice(shape.warmupQueries), shape.limit);
      const latency = summarizeLatency(measured.samples);
      progress(
        `    ${dialect} at ${counted} passages: p50 ${latency.p50Ms.toFixed(2)} ms, p99 ${latency.p99Ms.toFixed(2)} ms`,
      );
      results.push({
        kind: 'measured',
        passages: counted,
        populateSeconds,
        latency,
        emptyQueries: measured.emptyQueries,
      });
    }
  } finally {
    await library.close();
  }
  return results;
};

export const measureSearchLatency = async (
  shape: SearchShape,
  progress: (message: string) => void,
): Promise<SearchLatency> => {
  const sqlite = await measureDialect('sqlite', shape, progress);
  const postgres = await measureDialect('postgres', shape, progress);
  return { sqlite, postgres };
};
