import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../openStore.js';

describe('0017: one index serves every lookup of runs by owner (issue 19)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-index-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps only the (owner_hash, created_at, run_id) index, and owner lookups search it rather than scan', async () => {
    const path = join(dir, 'helix.db');
    await (await openStore(path)).close();
    const db = new Database(path, { readonly: true });
    try {
      const indexes = db
        .prepare(
          "select name from sqlite_master where type = 'index' and tbl_name = 'helix_agent_runs' and sql is not null",
        )
        .all() as { name: string }[];
      expect(indexes.map((r) => r.name).sort()).toEqual(['helix_agent_runs_owner_created', 'helix_agent_runs_turn']);
      for (const query of [
        'select count(*) from helix_agent_runs where owner_hash in (?)',
        'select * from helix_agent_runs where owner_hash in (?) and turn_id is not null',
        'delete from helix_agent_runs where owner_hash in (?)',
      ]) {
        const plan = db.prepare(`explain query plan ${query}`).all('x') as { detail: string }[];
        expect(plan.map((r) => r.detail).join('; ')).toMatch(/USING (COVERING )?INDEX helix_agent_runs_owner_created/);
      }
    } finally {
      db.close();
    }
  });
});
