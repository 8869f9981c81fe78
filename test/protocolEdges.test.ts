import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { mcpSnippet } from '../src/cli/mcpSnippets.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { rawMcp } from './support/mcpClient.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';

/** A raw request with repeated headers, which fetch would merge. */
const rawRequest = (url: string, path: string, rawHeaders: string[]): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = httpRequest(
      { host: hostname, port, path, method: 'GET', headers: rawHeaders as unknown as Record<string, string> },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });

// Issue 11, item 11: the smaller findings of the audit, one test each.
describe('protocol edges', () => {
  let h: TestHelix;
  let token: string;
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, {
      env: { HELIX_AGENT_IP_RATE_LIMIT: '0', HELIX_MCP_IP_RATE_LIMIT: '0' },
    });
    token = await h.key();
  });
  afterAll(() => h.close());

  it('an event stream resumed when caught up sends its headers at once, not with the first heartbeat', async () => {
    const run = (await api(h.url, 'POST', RUNS, { token, idempotencyKey: idemKey(), body: { objective: 'stream' } }))
      .body;
    const controller = new AbortController();
    const opened = fetch(`${h.url}${RUNS}/${run.run_id}/events/stream`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': '1' },
      signal: controller.signal,
    });
    const first = await Promise.race([
      opened,
      new Promise<'no headers'>((resolve) => setTimeout(() => resolve('no headers'), 5_000)),
    ]);
    controller.abort();
    expect(first).not.toBe('no headers');
    expect((first as Response).headers.get('content-type')).toContain('text/event-stream');
    expect((first as Response).headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('two Authorization headers are two credentials: 400 multiple_credentials, never "the first one"', async () => {
    const res = await rawRequest(h.url, `${RUNS}/run_abcdefgh12`, [
      'Host',
      '127.0.0.1',
      'Authorization',
      `Bearer ${token}`,
      'Authorization',
      'Bearer hlx_other',
    ]);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'multiple_credentials' });
  });

  it('a trailing slash is not the route: 404, not 405', async () => {
    for (const [method, path] of [
      ['POST', `${RUNS}/`],
      ['GET', `${RUNS}/run_abcdefgh12/`],
      ['POST', `${RUNS}/run_abcdefgh12/continue/`],
    ] as const) {
      const res = await api(h.url, method, path, {
        token,
        ...(method === 'POST' ? { idempotencyKey: idemKey(), body: {} } : {}),
      });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('OPTIONS /mcp is 405 with Allow: POST', async () => {
    const res = await fetch(`${h.url}/mcp`, { method: 'OPTIONS' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('413 and 415 to a mutation carry Idempotency-Replayed: false', async () => {
    const big = await fetch(`${h.url}${RUNS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': idemKey(), 'content-type': 'application/json' },
      body: JSON.stringify({ objective: 'x'.repeat(100 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(big.headers.get('idempotency-replayed')).toBe('false');
    const text = await fetch(`${h.url}${RUNS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': idemKey(), 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(text.status).toBe(415);
    expect(text.headers.get('idempotency-replayed')).toBe('false');
  });

  it('MCP refuses a run_id that is not a string, against its own schema', async () => {
    const res = await rawMcp(
      h.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'helix_run_inspect', arguments: { run_id: ['run_abcdefgh12'] } },
      },
      { authorization: `Bearer ${token}` },
    );
    expect(res.body.result.isError).toBe(true);
    expect(res.body.result.structuredContent).toMatchObject({ code: 'invalid_request', issues: [{ path: 'run_id' }] });
  });

  it("an unsupported MCP-Protocol-Version is ADR-0004's -32009 version_mismatch, naming the supported versions", async () => {
    const res = await rawMcp(
      h.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${token}`, 'mcp-protocol-version': '1999-01-01' },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32009, data: { supported: expect.arrayContaining(['2025-06-18']) } });
  });

  it('a server/discover probe (MCP 2026-07-28) is answered as an unknown method, so the client falls back', async () => {
    const res = await rawMcp(
      h.url,
      { jsonrpc: '2.0', id: 7, method: 'server/discover', params: {} },
      { authorization: `Bearer ${token}`, 'mcp-protocol-version': '2026-07-28' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } });
  });
});

describe('configuration and snippets', () => {
  it('theory_registry cannot be enabled: it has no source in this build', () => {
    expect(() => loadConfig({ HELIX_AGENT_DATABASE_SCOPES: 'research_library,theory_registry' })).toThrow(ConfigError);
    expect(() => loadConfig({ HELIX_AGENT_DATABASE_SCOPES: 'theory_registry' })).toThrow(/no source in this build/);
  });

  it('the Claude Code command quotes the header in single quotes, so the shell never expands the key into ~/.claude.json', () => {
    const hint = mcpSnippet('claude', { url: 'http://127.0.0.1:1522/mcp', tokenEnv: 'HELIX_TOKEN' }).note;
    // The shell, not Helix, expands the variable: the snippet holds it literally.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected text is a shell variable reference.
    expect(hint).toContain("--header 'Authorization: Bearer ${HELIX_TOKEN}'");
    expect(hint).not.toContain('"Authorization');
  });
});
