import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, idemKey, manualClock, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';

describe.each(storeFlavours())('GET /api/v1/agent-runs on $name', (flavour) => {
  let h: TestHelix;
  let mine: string;
  let theirs: string;
  const started: string[] = [];
  beforeAll(async () => {
    const clock = manualClock();
    h = await startTestHelix(flavour, { clock });
    mine = await h.key();
    theirs = await h.key(undefined, 'tenant-a', 'account-b');
    for (const objective of ['Alpha contract', 'Beta <script>alert(1)</script>', 'Gamma contract', 'Delta']) {
      const res = await api(h.url, 'POST', RUNS, { token: mine, idempotencyKey: idemKey(), body: { objective } });
      started.unshift(res.body.run_id);
      clock.advance(1000);
    }
    await api(h.url, 'POST', RUNS, { token: theirs, idempotencyKey: idemKey(), body: { objective: 'Their contract' } });
    // A cancelled run of mine, for the status filter.
    await api(h.url, 'POST', `${RUNS}/${started[3]}/cancel`, {
      token: mine,
      idempotencyKey: idemKey(),
      body: { expected_version: 1 },
    });
  });
  afterAll(async () => h?.close());

  const list = (query: string, token = mine) => api(h.url, 'GET', `${RUNS}${query}`, { token });

  it("lists only the caller's runs, newest first, as helix.agent_run.list.v1", async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.schema).toBe('helix.agent_run.list.v1');
    expect(res.body.runs.map((r: { run_id: string }) => r.run_id)).toEqual(started);
    expect(res.body.runs[2]).toMatchObject({
      objective: 'Beta <script>alert(1)</script>',
      lifecycle_status: 'waiting',
    });
    expect(res.body.next_cursor).toBeNull();
    expect((await list('', theirs)).body.runs.map((r: { objective: string }) => r.objective)).toEqual([
      'Their contract',
    ]);
  });

  it('filters by status and objective text, and pages with the cursor it returns', async () => {
    expect((await list('?status=cancelled')).body.runs.map((r: { run_id: string }) => r.run_id)).toEqual([started[3]]);
    expect((await list('?q=CONTRACT')).body.runs.map((r: { objective: string }) => r.objective)).toEqual([
      'Gamma contract',
      'Alpha contract',
    ]);
    const first = await list('?limit=3');
    expect(first.body.runs.map((r: { run_id: string }) => r.run_id)).toEqual(started.slice(0, 3));
    expect(first.body.next_cursor).toMatch(/^[A-Za-z0-9_-]+\.[0-9a-f]{32}$/);
    const second = await list(`?limit=3&cursor=${first.body.next_cursor}`);
    expect(second.body.runs.map((r: { run_id: string }) => r.run_id)).toEqual(started.slice(3));
    expect(second.body.next_cursor).toBeNull();
  });

  it("a cursor is bound to its owner: another owner's use of it is refused and finds nothing", async () => {
    const cursor = (await list('?limit=1')).body.next_cursor as string;
    const res = await list(`?cursor=${cursor}`, theirs);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request' });
    expect(res.body.runs).toBeUndefined();
    // Edited by one character, it is no cursor either.
    const edited = `${cursor.slice(0, -1)}${cursor.endsWith('0') ? '1' : '0'}`;
    expect((await list(`?cursor=${edited}`)).body).toMatchObject({ code: 'invalid_request' });
  });

  it('refuses bad query parameters as typed invalid_request', async () => {
    for (const query of [
      '?status=done',
      '?status=',
      '?limit=0',
      '?limit=101',
      '?limit=ten',
      '?cursor=nonsense',
      `?cursor=${Buffer.from('1:run_nosuchrun1').toString('base64url')}.${'0'.repeat(32)}`,
      '?q=',
      `?q=${'x'.repeat(201)}`,
      '?owner=someone',
    ]) {
      const res = await list(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({
        query,
        status: 400,
        code: 'invalid_request',
      });
    }
  });

  it('needs the read scope and a credential', async () => {
    const writeOnly = await h.key('helix.agent_runs.write');
    expect((await list('', writeOnly)).body).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect((await api(h.url, 'GET', RUNS)).status).toBe(401);
  });
});
