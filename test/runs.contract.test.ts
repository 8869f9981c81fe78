import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const FLAGS = {
  answer_authority: false,
  assistant_answer: false,
  terminal_eligible: false,
  raw_content_included: false,
};

describe.each(storeFlavours())('REST run contract on $name', (flavour) => {
  let h: TestHelix;
  let token: string;
  beforeAll(async () => {
    h = await startTestHelix(flavour);
    token = await h.key();
  });
  afterAll(async () => h.close());

  const start = (body: unknown, key = idemKey()) => api(h.url, 'POST', RUNS, { token, idempotencyKey: key, body });

  it('start returns 201, Location, version 1, the initial statuses and the contract defaults', async () => {
    const res = await start({ objective: 'Evaluate the candidate mechanisms.' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${RUNS}/${res.body.run_id}`);
    expect(res.headers.get('etag')).toBe('W/"1"');
    expect(res.headers.get('idempotency-replayed')).toBe('false');
    expect(res.body).toMatchObject({
      schema: 'helix.agent_run.v1',
      version: 1,
      lifecycle_status: 'waiting',
      completion_status: 'needs_more_evidence',
      terminal_authority_status: 'not_evaluated',
      completion_contract: {
        min_evidence_refs: 1,
        require_terminal_authority: true,
        required_output_fields: [],
        max_unresolved_requirements: 0,
        allow_conflicts: false,
      },
      budget: { max_steps: 12, expires_in_seconds: 3600, steps_used: 0, steps_remaining: 12 },
      constraints: [],
      database_scope: [],
      recommended_next_action: 'continue',
      ...FLAGS,
    });
    expect(res.body.run_id).toMatch(/^run_[A-Za-z0-9._:-]{8,200}$/);
    expect(Date.parse(res.body.budget.expires_at) - Date.parse(res.body.created_at)).toBe(3600 * 1000);
  });

  it('the run projection has every public field and opaque ownership hashes', async () => {
    const res = await start({ objective: 'Fields', constraints: ['Return source-level provenance'] });
    for (const field of [
      'run_id',
      'ownership',
      'objective',
      'objective_hash',
      'runtime_provider',
      'lifecycle_status',
      'completion_status',
      'terminal_authority_status',
      'version',
      'completion_contract',
      'constraints',
      'database_scope',
      'budget',
      'summary',
      'unresolved_requirements',
      'contradictions',
      'pending_questions',
      'evidence',
      'latest_result',
      'recommended_next_action',
      'created_at',
      'updated_at',
      'completed_at',
      'cancelled_at',
    ]) {
      expect(res.body, field).toHaveProperty(field);
    }
    expect(res.body.ownership.owner_ref).toMatch(/^owner:sha256:[0-9a-f]{32}$/);
    expect(res.body.ownership.tenant_ref).toMatch(/^tenant:sha256:[0-9a-f]{32}$/);
    expect(res.body.ownership.account_ref).toMatch(/^account:sha256:[0-9a-f]{32}$/);
    expect(res.text).not.toContain('tenant-a');
    expect(res.text).not.toContain('account-a');
  });

  it('accepts budget and contract values at their bounds and refuses values past them', async () => {
    const ok = await start({
      objective: 'Bounds',
      budget: { max_steps: 64, expires_in_seconds: 604800 },
      completion_contract: { min_evidence_refs: 2, required_output_fields: ['text', 'supporting_evidence_refs'] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.budget).toMatchObject({ max_steps: 64, expires_in_seconds: 604800 });
    expect(ok.body.completion_contract).toMatchObject({ min_evidence_refs: 2, require_terminal_authority: true });
    for (const budget of [
      { max_steps: 0 },
      { max_steps: 65 },
      { expires_in_seconds: 59 },
      { expires_in_seconds: 604801 },
      { max_steps: 1.5 },
    ]) {
      const res = await start({ objective: 'Bounds', budget });
      expect(res.status, JSON.stringify(budget)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    }
  });

  it('refuses unknown fields at every level and server-owned fields, with nothing assigned', async () => {
    for (const body of [
      { objective: 'x', version: 7 },
      { objective: 'x', status: 'completed' },
      { objective: 'x', ownership: { owner_ref: 'owner:sha256:abc' } },
      { objective: 'x', budget: { max_steps: 2, extra: 1 } },
      { objective: 'x', completion_contract: { allow_conflicts: true, surprise: true } },
      { objective: '' },
      { objective: '   ' },
      {},
      [],
      'objective',
    ]) {
      const res = await start(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ schema: 'helix.agent_api.error.v1', code: 'invalid_request', status: 400 });
    }
  });

  it('rejects an invalid run_id with invalid_run_id and an unknown one with not_found', async () => {
    const bad = await api(h.url, 'GET', `${RUNS}/not-a-run`, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_run_id');
    const missing = await api(h.url, 'GET', `${RUNS}/run_doesnotexist1`, { token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('every response carries no-store, no-cache and a request id; errors too', async () => {
    const created = await start({ objective: 'Headers' });
    const inspected = await api(h.url, 'GET', `${RUNS}/${created.body.run_id}`, { token });
    const unauthenticated = await api(h.url, 'GET', `${RUNS}/${created.body.run_id}`);
    const unknownPath = await api(h.url, 'GET', '/api/v1/nothing', { token });
    for (const res of [created, inspected, unauthenticated, unknownPath]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('pragma')).toBe('no-cache');
      expect(res.headers.get('x-request-id')).toMatch(/\S+/);
    }
    expect(inspected.headers.get('etag')).toBe('W/"1"');
    expect(inspected.headers.get('idempotency-replayed')).toBeNull();
  });

  it('keeps a safe caller X-Request-Id and replaces unsafe or credential-shaped ones', async () => {
    const safe = 'trace-2041.abc:def';
    const kept = await api(h.url, 'GET', `${RUNS}/run_doesnotexist1`, { token, headers: { 'x-request-id': safe } });
    expect(kept.headers.get('x-request-id')).toBe(safe);
    const long = 'a'.repeat(160);
    expect(
      (await api(h.url, 'GET', '/healthz', { headers: { 'x-request-id': long } })).headers.get('x-request-id'),
    ).toBe(long);
    for (const unsafe of [
      'a'.repeat(161),
      `hlx_${'A'.repeat(43)}`,
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlc2ln',
      'Bearer abc',
      'has space',
      'x<script>',
    ]) {
      const res = await api(h.url, 'GET', `${RUNS}/run_doesnotexist1`, { token, headers: { 'x-request-id': unsafe } });
      const id = res.headers.get('x-request-id') ?? '';
      expect(id).toMatch(/^req_[0-9a-f]{24}$/);
      expect(res.text).not.toContain(unsafe);
    }
  });

  it('requires an Idempotency-Key of 8-200 printable characters on every mutation', async () => {
    const created = await start({ objective: 'Keys' });
    const runId = created.body.run_id;
    for (const key of [undefined, 'short', 'x'.repeat(201), 'has space inside', 'tab\tinside1']) {
      const startRes = await api(h.url, 'POST', RUNS, {
        token,
        body: { objective: 'k' },
        ...(key === undefined ? {} : { idempotencyKey: key }),
      });
      expect(startRes.status, String(key)).toBe(400);
      expect(startRes.body.code).toBe('idempotency_key_required');
      const cont = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
        token,
        body: { expected_version: 1, instruction: 'go' },
        ...(key === undefined ? {} : { idempotencyKey: key }),
      });
      expect(cont.body.code).toBe('idempotency_key_required');
      const cancel = await api(h.url, 'POST', `${RUNS}/${runId}/cancel`, {
        token,
        body: { expected_version: 1 },
        ...(key === undefined ? {} : { idempotencyKey: key }),
      });
      expect(cancel.body.code).toBe('idempotency_key_required');
    }
    expect((await start({ objective: 'Keys' }, 'k'.repeat(200))).status).toBe(201);
    expect((await start({ objective: 'Keys' }, '12345678')).status).toBe(201);
  });

  it('refuses a wrong content type with 415 and an oversized body with 413', async () => {
    const wrongType = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      rawBody: 'objective=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.code).toBe('unsupported_media_type');
    const huge = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'x'.repeat(70 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
    const deep = await api(h.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      rawBody: `{"objective":"x","constraints":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    });
    expect(deep.status).toBe(400);
    const malformed = await api(h.url, 'POST', RUNS, { token, idempotencyKey: idemKey(), rawBody: '{"objective":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_request');
  });

  it('answers other methods on run paths with 405', async () => {
    const res = await api(h.url, 'DELETE', `${RUNS}/run_doesnotexist1`, { token });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('method_not_allowed');
  });

  it('continue requires an instruction or an answer, and an integer expected_version', async () => {
    const created = await start({ objective: 'Continue validation' });
    const runId = created.body.run_id;
    for (const body of [
      { expected_version: 1 },
      { expected_version: 1, instruction: '  ' },
      { expected_version: 0, instruction: 'x' },
      { instruction: 'x' },
      { expected_version: '1', instruction: 'x' },
      { expected_version: 1, instruction: 'x', extra: 1 },
    ]) {
      const res = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, { token, idempotencyKey: idemKey(), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    }
  });

  it('pages events with after_seq and limit, reporting next_after_seq and has_more', async () => {
    const created = await start({ objective: 'Events' });
    const runId = created.body.run_id;
    let version = 1;
    for (let i = 0; i < 2; i++) {
      const res = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
        token,
        idempotencyKey: idemKey(),
        body: { expected_version: version, instruction: 'look again' },
      });
      expect(res.status).toBe(200);
      version = res.body.version;
    }
    const all = await api(h.url, 'GET', `${RUNS}/${runId}/events?limit=200`, { token });
    expect(all.status).toBe(200);
    const seqs = all.body.events.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(all.body.has_more).toBe(false);
    expect(all.body.events[0]).toMatchObject({
      schema: 'helix.agent_run.event.v1',
      kind: 'run.started',
      seq: 1,
      ...FLAGS,
    });
    const page1 = await api(h.url, 'GET', `${RUNS}/${runId}/events?after_seq=0&limit=3`, { token });
    expect(page1.body.events.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3]);
    expect(page1.body).toMatchObject({ next_after_seq: 3, has_more: true });
    const page2 = await api(h.url, 'GET', `${RUNS}/${runId}/events?after_seq=3&limit=200`, { token });
    expect(page2.body.events[0].seq).toBe(4);
    expect(page2.body.has_more).toBe(false);
    const beyond = await api(h.url, 'GET', `${RUNS}/${runId}/events?after_seq=1000`, { token });
    expect(beyond.body).toMatchObject({ events: [], next_after_seq: 1000, has_more: false });
    for (const query of ['limit=0', 'limit=201', 'limit=1e9', 'after_seq=-1', 'after_seq=abc', 'limit=', 'unknown=1']) {
      const res = await api(h.url, 'GET', `${RUNS}/${runId}/events?${query}`, { token });
      expect(res.status, query).toBe(400);
    }
  });

  it('serves an evidence bundle with the separated refs and the four false flags', async () => {
    const created = await start({ objective: 'Evidence' });
    const res = await api(h.url, 'GET', `${RUNS}/${created.body.run_id}/evidence`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      schema: 'helix.agent_run.evidence_bundle.v1',
      run_id: created.body.run_id,
      observation_refs: [],
      evidence_refs: [],
      receipt_refs: [],
      supported_claims: [],
      contradicted_claims: [],
      unresolved_requirements: [],
      terminal_candidate_ref: null,
      terminal_candidate_writer: null,
      terminal_authority_status: 'not_evaluated',
      ...FLAGS,
    });
  });

  it('with no data scope the default executor has no capabilities, says so, and waits', async () => {
    const created = await start({ objective: 'Default executor' });
    const res = await api(h.url, 'POST', `${RUNS}/${created.body.run_id}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 1, instruction: 'go' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: 3,
      lifecycle_status: 'waiting',
      completion_status: 'needs_more_evidence',
      terminal_authority_status: 'not_evaluated',
      unresolved_requirements: ['no_admitted_capabilities'],
      budget: { steps_used: 1, steps_remaining: 11 },
      latest_result: { turn: 1, outcome: 'succeeded', text: null },
      // Without a data scope no turn can find anything: continuing would spend steps for nothing.
      recommended_next_action: 'broaden_scope',
    });
    expect(res.headers.get('etag')).toBe('W/"3"');
  });
});

describe('method and replay headers', () => {
  it('405 names the allowed methods; a refused mutation still says it was not replayed', async () => {
    const h = await startTestHelix(storeFlavours()[0]!);
    try {
      const token = await h.key();
      const res = await api(h.url, 'PUT', '/api/v1/agent-runs/run_doesnotexist1/continue', { token });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      const unknown = await api(h.url, 'GET', '/api/v1/unknown', { token });
      expect(unknown.body).toMatchObject({ code: 'not_found', message: 'No such endpoint.' });
      const refused = await api(h.url, 'POST', '/api/v1/agent-runs', {
        token,
        idempotencyKey: idemKey(),
        body: { objective: '' },
      });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('idempotency-replayed')).toBe('false');
    } finally {
      await h.close();
    }
  });
});

describe('credentials pasted into requests', () => {
  it('a credential-shaped value anywhere in a REST body is refused, never stored or echoed', async () => {
    const h = await startTestHelix(storeFlavours()[0]!);
    try {
      const token = await h.key();
      const secret = `hlx_${'Q'.repeat(43)}`;
      for (const body of [
        { objective: `use ${secret}` },
        { objective: 'x', constraints: [`Bearer ${'a'.repeat(30)}`] },
      ]) {
        const res = await api(h.url, 'POST', '/api/v1/agent-runs', { token, idempotencyKey: idemKey(), body });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_request');
        expect(res.text).not.toContain(secret);
      }
      expect(
        (
          await api(h.url, 'POST', '/api/v1/agent-runs', {
            token,
            idempotencyKey: idemKey(),
            body: { objective: 'How do bearer tokens work?' },
          })
        ).status,
      ).toBe(201);
    } finally {
      await h.close();
    }
  });
});
