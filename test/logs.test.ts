import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCredentialShaped } from '../src/domain/credentialShape.js';
import { createLogger } from '../src/logger.js';
import { api, idemKey, startTestHelix, waitFor, type TestHelix } from './support/harness.js';
import { rawMcp } from './support/mcpClient.js';
import { storeFlavours } from './support/stores.js';

const sqlite = storeFlavours().find((f) => f.name === 'sqlite')!;
const RUNS = '/api/v1/agent-runs';
const WRONG_KEY = `hlx_${'Q'.repeat(43)}`;
const JWT = 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJhbGljZSIsImF1ZCI6ImhlbGl4In0.c2lnbmF0dXJlLWJ5dGVz';
const PRINCIPAL_LIMIT = 8;

/**
 * Matrix #22/#23 and checklist item 8 ("secret-free logs"): every line Helix writes at debug level,
 * while it is handed keys and tokens in every place a caller can put them, is scanned.
 */
describe('logs never hold a credential', () => {
  const lines: string[] = [];
  let h: TestHelix;
  let key: string;
  let requests = 0;
  const replacedIds: string[] = [];

  const send = async (method: string, path: string, options: Parameters<typeof api>[3] = {}) => {
    requests += 1;
    return api(h.url, method, path, options);
  };
  const mcp = async (body: unknown, headers: Record<string, string>) => {
    requests += 1;
    return rawMcp(h.url, body, headers);
  };

  beforeAll(async () => {
    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    h = await startTestHelix(sqlite, { logger, env: { HELIX_AGENT_PRINCIPAL_RATE_LIMIT: String(PRINCIPAL_LIMIT) } });
    key = await h.key();

    const created = await send('POST', RUNS, {
      token: key,
      idempotencyKey: idemKey(),
      body: { objective: 'Log hygiene' },
    });
    expect(created.status).toBe(201);
    expect((await send('GET', `${RUNS}/${created.body.run_id}`, { token: key })).status).toBe(200);
    expect((await send('GET', `${RUNS}/${created.body.run_id}`, { token: WRONG_KEY })).status).toBe(401);
    expect((await send('GET', `${RUNS}/${created.body.run_id}`, { token: JWT })).status).toBe(401);
    expect((await send('GET', `${RUNS}/${created.body.run_id}?access_token=${key}`)).status).toBe(401);
    expect((await send('GET', `${RUNS}/${created.body.run_id}?access_token=${JWT}`, { token: key })).status).toBe(400);
    const traced = await send('GET', `${RUNS}/${created.body.run_id}`, {
      token: key,
      headers: { 'x-request-id': JWT },
    });
    expect(traced.status).toBe(200);
    const keyTraced = await send('GET', `${RUNS}/${created.body.run_id}`, {
      token: key,
      headers: { 'x-request-id': key },
    });
    expect(keyTraced.status).toBe(200);
    for (const response of [traced, keyTraced]) {
      expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]+$/);
      replacedIds.push(response.headers.get('x-request-id')!);
    }

    const auth = { authorization: `Bearer ${key}` };
    const list = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, auth);
    expect(list.status).toBe(200);
    const smuggled = await mcp(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'helix_run_start',
          arguments: { idempotency_key: idemKey(), request: { objective: `use ${key} and ${JWT}` } },
        },
      },
      auth,
    );
    expect(smuggled.status).toBe(400);
    expect(
      (await mcp({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { authorization: `Bearer ${WRONG_KEY}` })).status,
    ).toBe(401);

    // Exhaust the principal limit so the 'rate limited' warning is scanned too.
    for (let i = 0; i < PRINCIPAL_LIMIT; i += 1) await send('GET', `${RUNS}/run_missing`, { token: key });
    expect((await send('GET', `${RUNS}/run_missing`, { token: key })).status).toBe(429);

    // Request lines are written from onResponse, which may run just after the client has its answer.
    await waitFor(async () => requestLines().length >= requests);
  });
  afterAll(async () => h.close());

  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const requestLines = () => parsed().filter((entry) => entry.msg === 'request');

  it('no line holds an hlx_ key, a JWT or any other credential shape', () => {
    const secrets = [key, key.slice('hlx_'.length), WRONG_KEY, JWT, JWT.split('.')[1]!];
    expect(lines.length).toBeGreaterThan(requests);
    for (const line of lines) {
      expect(isCredentialShaped(line), line).toBe(false);
      for (const secret of secrets) expect(line.includes(secret), line).toBe(false);
    }
  });

  it('the log does record every request: path without query, status and the credential id', () => {
    const entries = requestLines();
    expect(entries).toHaveLength(requests);
    const statuses = new Set(entries.map((e) => e.status));
    for (const status of [200, 201, 400, 401, 429]) expect(statuses.has(status), `status ${status}`).toBe(true);
    const paths = new Set(entries.map((e) => e.path));
    expect(paths.has(RUNS)).toBe(true);
    expect(paths.has('/mcp')).toBe(true);
    expect(entries.every((e) => typeof e.path === 'string' && !e.path.includes('?'))).toBe(true);
    expect(entries.some((e) => typeof e.principal === 'string' && e.principal.startsWith('key_'))).toBe(true);
    // A credential-shaped X-Request-Id is logged as the server id the response carried.
    for (const id of replacedIds) expect(entries.filter((e) => e.request_id === id)).toHaveLength(1);
    const refusal = parsed().find((e) => e.msg === 'rate limited');
    expect(refusal).toMatchObject({
      bucket: 'rest_principal',
      principal: expect.stringMatching(/^key_/),
      retry_after_seconds: expect.any(Number),
    });
  });
});
