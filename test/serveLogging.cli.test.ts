// Issue 17 item 6: `helix serve --log-file` writes the JSON log to a file (flushed on shutdown),
// and the announcement names the server's own pid (for `npx helix serve &`, whose $! is npx's).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { announcedServer, spawnTs } from './support/processes.js';
import { ceilingFor } from './support/ceilings.js';

describe('helix serve logging', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-serve-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--log-file takes every request line to the file, none to stdout; SIGTERM flushes it', {
    timeout: ceilingFor(1),
  }, async () => {
    const logFile = join(dir, 'logs', 'helix.jsonl');
    const child = spawnTs(
      'src/cli/main.ts',
      ['serve', '--port', '0', '--database', join(dir, 'helix.db'), '--log-file', logFile],
      { HELIX_LOG_LEVEL: '' },
    );
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const server = await announcedServer(child, (line) => /helix listening on (\S+)/.exec(line)?.[1]);
    expect(stdout).toMatch(new RegExp(`^helix listening on http://127\\.0\\.0\\.1:\\d+ \\(pid ${child.pid}\\)\\n`));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.some((l) => l.level === 30 && JSON.stringify(l).includes('/healthz'))).toBe(true);
    expect(stdout).not.toContain('{');
  });

  it('refuses an unknown --log-level with exit 2 before it listens', { timeout: ceilingFor(1) }, async () => {
    const child = spawnTs('src/cli/main.ts', ['serve', '--port', '0', '--log-level', 'loud'], {});
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('--log-level must be one of');
  });
});
