import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingsClient } from '../src/model/embeddings/embeddingsClient.js';
import type { CapabilityHit } from '../src/sources/capability.js';
import { libraryCapabilities } from '../src/sources/library/capabilities.js';
import type { HybridRanking } from '../src/sources/library/hybridSearch.js';
import { ingestPaths, type IngestProgress } from '../src/sources/library/ingest.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../src/sources/library/extract/limits.js';
import { startEmbeddingsServer, type EmbeddingsServer } from './support/embeddingsServer.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const KEY = 'sk-hybrid-test-key-0123456789';

/** Three notes; the repair note shares no word with "fix broken car" but means it (the fixture's synonyms). */
const NOTES = {
  'parking.md': '# Parking\n\nThe car park behind the office closes at nine in the evening.\n',
  'windows.md': '# Windows\n\nA broken window in the office was reported to facilities on Monday.\n',
  'repair.md': '# Workshop\n\nMending a damaged automobile takes the workshop about two days.\n',
};

const writeNotes = (dir: string, notes: Readonly<Record<string, string>>): void => {
  for (const [name, text] of Object.entries(notes)) writeFileSync(join(dir, name), text);
};

const searchWith = async (t: TestStore, hybrid: HybridRanking | undefined, query: string, limit = 3) => {
  const [search] = libraryCapabilities(t.store, hybrid);
  const result = await search!.execute(
    { query, limit },
    { runId: 'run_test', turn: 1, signal: new AbortController().signal, now: () => 5_000 },
  );
  return result.hits.map((hit: CapabilityHit) => hit.title);
};

describe.each(storeFlavours())('hybrid library search on $name', (flavour) => {
  let t: TestStore;
  let server: EmbeddingsServer;
  let dir: string;
  let fallbacks: string[];
  let hybrid: HybridRanking;
  beforeAll(async () => {
    t = await flavour.create();
    server = await startEmbeddingsServer();
    dir = mkdtempSync(join(tmpdir(), 'helix-hybrid-'));
    writeNotes(dir, NOTES);
    fallbacks = [];
    hybrid = {
      embedder: embeddingsClient({ baseUrl: server.url, model: 'fixture-embed', apiKey: KEY }),
      onFallback: (reason) => fallbacks.push(reason),
    };
  });
  afterAll(async () => {
    await server.close();
    await t.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const ingest = (at: number, progress: IngestProgress[] = []) =>
    ingestPaths(
      t.store,
      [dir],
      () => at,
      (p) => progress.push(p),
      DEFAULT_DOCUMENT_LIMITS,
      hybrid.embedder,
    );

  it('without configuration ingests and searches lexically, sending nothing', async () => {
    const report = await ingestPaths(t.store, [dir], () => 1_000);
    expect(report).toEqual({ added: 3, updated: 0, unchanged: 0, skipped: 0, refused: 0, failed: 0, passages: 3 });
    expect(server.requests).toEqual([]);
    // Lexical search cannot reach the repair note: it shares no word with the question.
    expect((await searchWith(t, undefined, 'fix broken car')).sort()).toEqual(['Parking', 'Windows']);
    expect(server.requests).toEqual([]);
  });

  it('embeds the passages that have no embedding yet, with progress', async () => {
    const progress: IngestProgress[] = [];
    const report = await ingest(2_000, progress);
    expect(report).toMatchObject({ unchanged: 3, embedded: 3 });
    expect(server.embeddedTexts()).toHaveLength(3);
    const embedded = progress.filter((p) => p.outcome === 'embedded');
    expect(embedded.map((p) => p.path.split('/').at(-1)).sort()).toEqual(['parking.md', 'repair.md', 'windows.md']);
    expect(embedded.map((p) => [p.index, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('ranks hybrid: a paraphrase reaches the passage lexical search misses', async () => {
    expect(await searchWith(t, hybrid, 'fix broken car')).toContain('Workshop');
    expect(fallbacks).toEqual([]);
    expect(server.requests.at(-1)?.body.input).toEqual(['fix broken car']);
  });

  it('re-embeds only a changed document', async () => {
    const before = server.embeddedTexts().length;
    expect(await ingest(3_000)).toMatchObject({ unchanged: 3, embedded: 0 });
    expect(server.embeddedTexts()).toHaveLength(before);
    writeNotes(dir, { 'parking.md': '# Parking\n\nThe car park behind the office now closes at ten.\n' });
    expect(await ingest(4_000)).toMatchObject({ updated: 1, unchanged: 2, embedded: 1 });
    expect(server.embeddedTexts().slice(before)).toEqual([expect.stringContaining('closes at ten')]);
  });

  it('a failing endpoint fails the embedding, not the indexing; the next run catches up', async () => {
    writeNotes(dir, { 'windows.md': '# Windows\n\nA broken window in the lobby was replaced on Friday.\n' });
    server.replies.push({ kind: 'status', status: 500, body: { error: { message: `boom ${KEY}` } } });
    const report = await ingest(5_000);
    expect(report).toMatchObject({ updated: 1, embedded: 0 });
    expect(report.embeddingError).toMatch(/embeddings endpoint refused the request with HTTP 500/);
    expect(report.embeddingError).not.toContain(KEY);
    expect(
      (await t.store.read.library.search({ terms: ['lobby'], phrases: [] }, 5)).map((h) => h.document.title),
    ).toEqual(['Windows']);
    expect(await ingest(6_000)).toMatchObject({ unchanged: 3, embedded: 1 });
    expect(await t.store.read.library.countUnembedded('fixture-embed')).toBe(0);
  });

  it('falls back to lexical ranking when the query cannot be embedded, and says why', async () => {
    server.replies.push({ kind: 'status', status: 503, body: { error: { message: `down ${KEY}` } } });
    expect(await searchWith(t, hybrid, 'fix broken car')).toEqual(await searchWith(t, undefined, 'fix broken car'));
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatch(/HTTP 503/);
    expect(fallbacks[0]).not.toContain(KEY);
  });
});
