import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDeps } from './support/accounts.js';
import { signInCookie } from './support/consoleSession.js';
import {
  ASKING,
  CONFIRMATION,
  CONFIRMING,
  PASSAGE,
  QUESTION,
  QUOTED,
  startConsoleRuns,
  type ConsoleRuns,
} from './support/consoleRuns.js';
import { api } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const SCRIPTED_OBJECTIVE = 'Explain <script>self["pwned"]=true</script> the flux capacitor';

describe.each(storeFlavours())('the console run pages over HTTP on $name', (flavour) => {
  let c: ConsoleRuns;
  let origin: string;
  let ownerCookie: string;
  let otherCookie: string;
  const runs: Record<string, string> = {};

  const cookieOf = async (accountId: string): Promise<string> => {
    return signInCookie(c.h.url, await accountDeps(c.h.testStore.store), accountId);
  };
  const get = (path: string, cookie?: string) =>
    fetch(`${c.h.url}${path}`, { redirect: 'manual', headers: cookie === undefined ? {} : { cookie } });
  const answer = (runId: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${c.h.url}/account/runs/${runId}/answers`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin,
        'sec-fetch-site': 'same-origin',
        cookie: ownerCookie,
        ...headers,
      },
      body: new URLSearchParams(form),
    });
  const inspect = async (runId: string) =>
    (await api(c.h.url, 'GET', `/api/v1/agent-runs/${runId}`, { token: c.ownerKey })).body;

  beforeAll(async () => {
    c = await startConsoleRuns(flavour);
    origin = new URL(c.h.url).origin;
    runs.scripted = await c.start(c.ownerKey, SCRIPTED_OBJECTIVE);
    await c.turn(c.ownerKey, runs.scripted);
    runs.asking = await c.start(c.ownerKey, ASKING);
    await c.turn(c.ownerKey, runs.asking);
    runs.theirs = await c.start(c.otherKey, 'Their flux capacitor run');
    ownerCookie = await cookieOf(c.owner);
    otherCookie = await cookieOf(c.other);
  });
  afterAll(async () => c?.h.close());

  it("lists the owner's runs only, searched by objective text and status; a bad filter is a 400 page", async () => {
    const page = await (await get('/account/runs', ownerCookie)).text();
    expect(page).toContain(`data-run="${runs.asking}"`);
    expect(page).toContain(`data-run="${runs.scripted}"`);
    expect(page).not.toContain(runs.theirs);
    const searched = await (await get('/account/runs?q=FLUX&status=completed&from=&to=', ownerCookie)).text();
    expect(searched).toContain(`data-run="${runs.scripted}"`);
    expect(searched).not.toContain(`data-run="${runs.asking}"`);
    const waiting = await (await get('/account/runs?status=waiting', ownerCookie)).text();
    expect(waiting).toContain(`data-run="${runs.asking}"`);
    expect(waiting).not.toContain(`data-run="${runs.scripted}"`);
    for (const query of [
      'status=done',
      'from=2026-13-45',
      'limit=0',
      'cursor=forged.00000000000000000000000000000000',
    ]) {
      const res = await get(`/account/runs?${query}`, ownerCookie);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(await res.text()).toContain('id="error"');
    }
    expect((await get('/account/runs')).status).toBe(401);
  });

  it('renders objective, evidence and answer text inert, with the quoted span marked in its passage', async () => {
    const res = await get(`/account/runs/${runs.scripted}`, ownerCookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const page = await res.text();
    expect(page).toContain('Explain &lt;script&gt;self[&quot;pwned&quot;]=true&lt;/script&gt; the flux capacitor');
    expect(page).not.toContain('<script>self');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;');
    expect(page).toContain(`<mark>${QUOTED}</mark>`);
    expect(page).toMatch(/<blockquote id="answer"><p>The flux capacitor stores charge in a ring\. \[1\]<\/p>/);
    expect(page).toContain('<a href="#artifact-1">[1]</a>');
    expect(PASSAGE).toContain(QUOTED);
    // The only scripts are the page's own same-origin file.
    expect(page.match(/<script[^>]*>/g)).toEqual(['<script src="/account/runs.js">']);
  });

  it("another account's run is not found, on the page, its answer form and its event stream", async () => {
    for (const [runId, cookie] of [
      [runs.theirs!, ownerCookie],
      [runs.scripted!, otherCookie],
    ] as const) {
      expect((await get(`/account/runs/${runId}`, cookie)).status).toBe(404);
      const stream = await get(`/account/runs/${runId}/events/stream`, cookie);
      expect(stream.status).toBe(404);
      expect(((await stream.json()) as { code: string }).code).toBe('not_found');
    }
    const res = await answer(runs.theirs!, {
      question_id: 'x',
      value: 'y',
      expected_version: '1',
      idempotency_key: 'console-k-1',
    });
    expect(res.status).toBe(404);
    expect((await get(`/account/runs/not-a-run-id`, ownerCookie)).status).toBe(400);
  });

  it('refuses a cross-origin answer carrying the session cookie, then takes the same-origin one', async () => {
    const before = await inspect(runs.asking!);
    expect(before.pending_questions).toEqual([QUESTION]);
    const page = await (await get(`/account/runs/${runs.asking}`, ownerCookie)).text();
    expect(page).toContain('<ul id="contradictions"><li>Passage &lt;i&gt;two&lt;/i&gt; disagrees on the ring');
    expect(page).toContain(`<input type="hidden" name="expected_version" value="${before.version}">`);
    expect(page).toContain(`<label>${QUESTION.prompt}<br><input name="value"`);
    const form = {
      question_id: QUESTION.question_id,
      value: 'the 1950s',
      expected_version: String(before.version),
      idempotency_key: 'console-answer-0001',
    };
    for (const headers of [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const refused = await answer(runs.asking!, form, headers);
      expect(refused.status).toBe(403);
    }
    expect((await inspect(runs.asking!)).version).toBe(before.version);

    const res = await answer(runs.asking!, form);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/account/runs/${runs.asking}`);
    const after = await inspect(runs.asking!);
    expect(after).toMatchObject({ pending_questions: [], lifecycle_status: 'completed' });
    // The same form again replays the first answer rather than continuing twice.
    expect((await answer(runs.asking!, form)).status).toBe(303);
    expect((await inspect(runs.asking!)).version).toBe(after.version);
  });

  it('ATP-28: a confirmation is answered with Confirm or Decline (and feedback), never a typed value', async () => {
    const runId = await c.start(c.ownerKey, CONFIRMING);
    await c.turn(c.ownerKey, runId);
    const before = await inspect(runId);
    expect(before.pending_questions).toEqual([CONFIRMATION]);
    const page = await (await get(`/account/runs/${runId}`, ownerCookie)).text();
    expect(page).toContain('<button type="submit" name="decision" value="confirm">Confirm</button>');
    expect(page).toContain('<button type="submit" name="decision" value="decline">Decline</button>');
    expect(page).not.toContain('<input name="value"');
    const base = { question_id: CONFIRMATION.question_id, expected_version: String(before.version) };
    // A typed value is not a confirmation: refused, the run unchanged.
    const typed = await answer(runId, { ...base, value: 'yes', idempotency_key: 'console-confirm-typed' });
    expect(typed.status).toBe(400);
    expect((await inspect(runId)).version).toBe(before.version);
    // Decline with feedback reaches the run as { is_confirmed: false, feedback }: it does not complete.
    const declined = await answer(runId, {
      ...base,
      decision: 'decline',
      feedback: 'Only the free sources, please.',
      idempotency_key: 'console-confirm-decline',
    });
    expect(declined.status).toBe(303);
    expect(await inspect(runId)).toMatchObject({
      lifecycle_status: 'waiting',
      completion_status: 'needs_more_evidence',
    });
    // Confirm reaches another such run as { is_confirmed: true }: it completes.
    const other = await c.start(c.ownerKey, CONFIRMING);
    await c.turn(c.ownerKey, other);
    const confirmed = await answer(other, {
      question_id: CONFIRMATION.question_id,
      expected_version: String((await inspect(other)).version),
      decision: 'confirm',
      idempotency_key: 'console-confirm-yes',
    });
    expect(confirmed.status).toBe(303);
    expect(await inspect(other)).toMatchObject({ pending_questions: [], lifecycle_status: 'completed' });
  });

  it('answers only through an active key that owns the run: a revoked key leaves the question to the agent', async () => {
    const key = await c.h.key(
      'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read',
      'tenant-z',
      c.owner,
    );
    const runId = await c.start(key, ASKING);
    await c.turn(key, runId);
    const { version } = (await api(c.h.url, 'GET', `/api/v1/agent-runs/${runId}`, { token: key })).body;
    const keyRow = (await c.h.testStore.store.read.apiKeys.listForAccount(c.owner)).find(
      (k) => k.tenantId === 'tenant-z',
    )!;
    await c.h.testStore.store.read.apiKeys.revoke(keyRow.keyId, Date.now());
    const form = {
      question_id: QUESTION.question_id,
      value: 'x',
      expected_version: String(version),
      idempotency_key: 'console-revoked-1',
    };
    const res = await answer(runId, form);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('answer through the agent that started it');
    // Still the owner's run: listed and shown, only not answerable here.
    expect((await get(`/account/runs/${runId}`, ownerCookie)).status).toBe(200);
    const stored = await c.h.testStore.store.read.runs.get(runId);
    expect(stored).toMatchObject({ version, pendingQuestions: [QUESTION] });
  });

  it('streams the run events to the signed-in owner, ending once the run is terminal', async () => {
    const res = await get(`/account/runs/${runs.scripted}/events/stream?after_seq=0`, ownerCookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const body = await res.text();
    expect(body).toContain('event: run.completed');
    expect(body.trimEnd().endsWith('event: end\ndata: {}')).toBe(true);
    expect((await get(`/account/runs/${runs.scripted}/events/stream`)).status).toBe(401);
    const crossSite = await fetch(`${c.h.url}/account/runs/${runs.scripted}/events/stream`, {
      headers: { cookie: ownerCookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
  });
});
