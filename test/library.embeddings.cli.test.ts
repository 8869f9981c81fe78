import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddingsServer, type EmbeddingsServer } from './support/embeddingsServer.js';
import { runCli } from './support/processes.js';
import { ceilingFor } from './support/ceilings.js';

const KEY = 'sk-cli-embeddings-key-0123456789';

describe('helix library add with HELIX_EMBEDDINGS_*', () => {
  let dir: string;
  let server: EmbeddingsServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'helix-emb-cli-'));
    server = await startEmbeddingsServer();
    env = {
      HELIX_EMBEDDINGS_MODEL: 'fixture-embed',
      HELIX_EMBEDDINGS_BASE_URL: server.url,
      HELIX_EMBEDDINGS_API_KEY: KEY,
    };
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a failing endpoint as an error of the run, keeps the documents, and embeds them next time', {
    timeout: ceilingFor(2),
  }, async () => {
    const database = join(dir, 'helix.db');
    writeFileSync(join(dir, 'notes.md'), '# Bracket notes\n\nThe bracket is machined from aluminium.\n');
    server.replies.push({ kind: 'status', status: 401, body: { error: { message: 'invalid key' } } });
    const failed = await runCli(['library', 'add', join(dir, 'notes.md'), '--database', database], env);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('1 added');
    expect(failed.stderr).toMatch(
      /embedding stopped: the embeddings endpoint refused the request with HTTP 401 \(auth\)/,
    );
    expect(failed.stderr + failed.stdout).not.toContain(KEY);

    const retried = await runCli(['library', 'add', join(dir, 'notes.md'), '--database', database], env);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toMatch(/\[1\/1\] embedded\s+\S*notes\.md \(1 passage\)/);
    expect(retried.stdout).toContain('1 unchanged');
    expect(retried.stdout).toContain('library: 1 passage embedded');
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('stops on a bad setting, naming the variable', { timeout: ceilingFor(1) }, async () => {
    const res = await runCli(['library', 'add', join(dir, 'notes.md'), '--database', join(dir, 'bad.db')], {
      HELIX_EMBEDDINGS_MODEL: 'fixture-embed',
      HELIX_EMBEDDINGS_BASE_URL: 'not a url',
    });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('HELIX_EMBEDDINGS_BASE_URL must be an absolute http(s) URL');
  });
});
