/**
 * Search quality on the sample library: recall@5 of a labelled question set (fixtures/library-queries.json)
 * over the project's docs/, on both dialects, through the exact query path a turn uses
 * (content terms of the question -> store.read.library.search).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { contentTerms } from '../src/domain/terms.js';
import { ingestPaths } from '../src/sources/library/ingest.js';
import { createPgliteDialect } from '../src/store/dialects/pglite.js';
import { KyselyStore } from '../src/store/kyselyStore.js';
import { openStore } from '../src/store/openStore.js';
import type { Store } from '../src/store/port.js';

interface Label {
  readonly doc: string;
  readonly heading?: string;
}

interface LabelledQuery {
  readonly query: string;
  readonly relevant: readonly Label[];
}

export interface SearchQuality {
  readonly k: number;
  readonly queries: number;
  readonly documents: number;
  readonly recall: { readonly sqlite: number; readonly pglite: number };
  /** Questions no dialect answered within the top k, for whoever tunes ranking next. */
  readonly misses: { readonly sqlite: readonly string[]; readonly pglite: readonly string[] };
}

const K = 5;

/**
 * docs/ as labelled, without docs/performance.md: the bench writes that page, so indexing it would
 * make this run's recall depend on the figures the previous run printed. Nor docs/spec/: the
 * contract as received, which the labels do not cover.
 */
const libraryPaths = (): string[] =>
  readdirSync('docs')
    .filter((name) => name !== 'performance.md' && name !== 'spec')
    .map((name) => join('docs', name));

const loadQueries = (): LabelledQuery[] =>
  (
    JSON.parse(readFileSync(new URL('./fixtures/library-queries.json', import.meta.url), 'utf8')) as {
      queries: LabelledQuery[];
    }
  ).queries;

const isRelevant = (labels: readonly Label[], displayPath: string, heading: string | null): boolean =>
  labels.some(
    (l) =>
      l.doc === displayPath &&
      (l.heading === undefined || (heading ?? '').toLowerCase().includes(l.heading.toLowerCase())),
  );

const recallOf = async (
  store: Store,
  queries: readonly LabelledQuery[],
): Promise<{ recall: number; misses: string[] }> => {
  const misses: string[] = [];
  for (const q of queries) {
    const hits = await store.read.library.search({ terms: contentTerms(q.query), phrases: [] }, K);
    if (!hits.some((h) => isRelevant(q.relevant, h.document.displayPath, h.passage.heading))) misses.push(q.query);
  }
  return { recall: (queries.length - misses.length) / queries.length, misses };
};

export const measureSearchQuality = async (progress: (line: string) => void): Promise<SearchQuality> => {
  const queries = loadQueries();
  const dir = mkdtempSync(join(tmpdir(), 'helix-bench-quality-'));
  const sqlite = await openStore(join(dir, 'helix.db'));
  const pglite = new KyselyStore('postgres', createPgliteDialect(new PGlite()));
  try {
    await pglite.migrate();
    let documents = 0;
    for (const [name, store] of [
      ['sqlite', sqlite],
      ['pglite', pglite],
    ] as const) {
      const report = await ingestPaths(store, libraryPaths(), Date.now);
      documents = report.added + report.unchanged + report.updated;
      progress(`  ${name}: indexed docs/ (${documents} documents, ${report.passages} passages)`);
    }
    const [s, p] = [await recallOf(sqlite, queries), await recallOf(pglite, queries)];
    return {
      k: K,
      queries: queries.length,
      documents,
      recall: { sqlite: s.recall, pglite: p.recall },
      misses: { sqlite: s.misses, pglite: p.misses },
    };
  } finally {
    await sqlite.close();
    await pglite.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
