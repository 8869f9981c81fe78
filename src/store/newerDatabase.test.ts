import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './openStore.js';

describe('a database migrated by a newer Helix', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-newer-db-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to open with a message that says to update this build, naming the unknown migration', async () => {
    const path = join(dir, 'helix.db');
    await (await openStore(path)).close();
    const raw = new Database(path);
    raw
      .prepare('insert into helix_migrations (name, timestamp) values (?, ?)')
      .run('9999_from_the_future', '2030-01-01T00:00:00.000Z');
    raw.close();
    await expect(openStore(path)).rejects.toThrow(
      /migrated by a newer Helix \(it has migration 9999_from_the_future, which this build does not know\): update this installation/,
    );
  });
});
