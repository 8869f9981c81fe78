import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';
import { readSourceFixture, replyWith, startReplayServer, type ReplayServer } from './fixtures/sources/replayServer.js';

const RUNS = '/api/v1/agent-runs';

describe('a run over repository and web evidence', () => {
  let h: TestHelix;
  let web: ReplayServer;
  let repo: string;
  let token: string;
  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), 'helix-repo-'));
    writeFileSync(
      join(repo, 'NOTES.md'),
      '# Storage notes\n\nWe run SQLite in write-ahead log mode; a checkpoint copies WAL frames back into the database file.\n',
    );
    writeFileSync(join(repo, '.gitignore'), 'secret.txt\n');
    writeFileSync(join(repo, 'secret.txt'), 'The write-ahead log checkpoint password is hunter2.\n');
    web = await startReplayServer(
      replyWith(200, 'application/json', readSourceFixture('searxng/search-sqlite-wal.json')),
    );
    h = await startTestHelix(storeFlavours()[0]!, {
      env: {
        HELIX_AGENT_DATABASE_SCOPES: 'repository_evidence,public_web',
        HELIX_REPOSITORY_ROOTS: repo,
        HELIX_SEARXNG_URL: `${web.origin}/search`,
      },
    });
    token = await h.key(
      'helix.agent_runs.read helix.agent_runs.write helix.data.repository_evidence.read helix.data.public_web.read',
    );
  });
  afterAll(async () => {
    await h.close();
    await web.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('completes with evidence from both required families, each with its provenance, and never forwards the bearer', async () => {
    const started = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: {
        objective: 'How does the SQLite write-ahead log checkpoint work?',
        database_scope: ['repository_evidence', 'public_web'],
      },
    });
    expect(started.status, started.text).toBe(201);
    const res = await api(h.url, 'POST', `${RUNS}/${started.body.run_id}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 1, instruction: 'Answer.' },
    });
    expect(res.body.unresolved_requirements).toEqual([]);
    expect(res.body).toMatchObject({ completion_status: 'completed', terminal_authority_status: 'authorized' });
    // Completion implies the hard gate passed: this turn re-entered both required families.
    const reentered = (await api(h.url, 'GET', `${RUNS}/${started.body.run_id}/events`, { token })).body.events.find(
      (e: { kind: string }) => e.kind === 'run.evidence_reentered',
    ).data.admitted_refs as string[];
    const recorded = await h.testStore.store.read.artifacts.listRecorded(started.body.run_id);
    const admitted = recorded.filter((a) => reentered.includes(a.ref));
    expect(new Set(admitted.map((a) => a.family))).toEqual(
      new Set(['repository_evidence', 'internet_search_evidence']),
    );
    const locators = admitted.map((a) => a.provenance.locator);
    expect(locators).toContain('NOTES.md');
    expect(locators).toContain('https://www.sqlite.org/wal.html');
    // The bundle projects what the authorized answer cites (grounding is required by default).
    const bundle = (await api(h.url, 'GET', `${RUNS}/${started.body.run_id}/evidence`, { token })).body;
    expect(bundle.evidence_refs.length).toBeGreaterThan(0);
    expect(res.body.latest_result.supporting_evidence_refs).toEqual(expect.arrayContaining(bundle.evidence_refs));
    expect(JSON.stringify(recorded)).not.toContain('hunter2');
    expect(web.requests.length).toBeGreaterThan(0);
    for (const request of web.requests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain(token);
    }
  });

  it('a web source that is down is reported, not crashed on', async () => {
    await web.close();
    const started = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: {
        objective: 'How does the SQLite write-ahead log checkpoint work?',
        database_scope: ['repository_evidence', 'public_web'],
      },
    });
    const res = await api(h.url, 'POST', `${RUNS}/${started.body.run_id}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 1, instruction: 'Answer.' },
    });
    expect(res.status).toBe(200);
    expect(res.body.unresolved_requirements).toEqual(
      expect.arrayContaining([
        'source_unavailable:internet-search.search_web',
        'required_evidence:internet_search_evidence',
      ]),
    );
    expect(res.body.terminal_authority_status).not.toBe('authorized');
  });
});
