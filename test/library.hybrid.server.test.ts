import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingsClient } from '../src/model/embeddings/embeddingsClient.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../src/sources/library/extract/limits.js';
import { ingestPaths } from '../src/sources/library/ingest.js';
import { startEmbeddingsServer, type EmbeddingsServer } from './support/embeddingsServer.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const SCOPES = 'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read';
const KEY = 'sk-server-embeddings-key-0123456789';

describe('helix serve with HELIX_EMBEDDINGS_*', () => {
  let h: TestHelix;
  let server: EmbeddingsServer;
  let dir: string;
  beforeAll(async () => {
    server = await startEmbeddingsServer();
    dir = mkdtempSync(join(tmpdir(), 'helix-hybrid-server-'));
    writeFileSync(join(dir, 'repair.md'), '# Workshop\n\nMending a damaged automobile takes the workshop two days.\n');
    h = await startTestHelix(storeFlavours()[0]!, {
      env: {
        HELIX_AGENT_DATABASE_SCOPES: 'research_library',
        HELIX_EMBEDDINGS_MODEL: 'fixture-embed',
        HELIX_EMBEDDINGS_BASE_URL: server.url,
        HELIX_EMBEDDINGS_API_KEY: KEY,
      },
    });
    const embedder = embeddingsClient({ baseUrl: server.url, model: 'fixture-embed' });
    const report = await ingestPaths(h.testStore.store, [dir], Date.now, undefined, DEFAULT_DOCUMENT_LIMITS, embedder);
    expect(report).toMatchObject({ added: 1, embedded: 1 });
  });
  afterAll(async () => {
    await h.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a run’s library search embeds its query with the configured key and the configured model', async () => {
    const token = await h.key(SCOPES);
    const started = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'How long to fix a broken car?', database_scope: ['research_library'] },
    });
    expect(started.status, started.text).toBe(201);
    const before = server.requests.length;
    const res = await api(h.url, 'POST', `${RUNS}/${started.body.run_id}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 1, instruction: 'Answer with citations.' },
    });
    expect(res.status, res.text).toBe(200);
    const queries = server.requests.slice(before);
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(queries.flatMap((q) => q.body.input).join(' ')).toMatch(/broken|car/);
  });
});
