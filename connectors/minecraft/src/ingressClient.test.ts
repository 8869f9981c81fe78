import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createActionClient, createIngressClient, IngressError, retryDelayMs } from './ingressClient.js';

const BEARER = 'hlxsrc_secret_0123456789abcdef';
const FAST = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000 };

interface Seen {
  url: string;
  authorization: string | undefined;
  body: string;
}

let server: Server | undefined;
afterEach(() => server?.close());

/** A loopback ingress that answers each request with the next [status, body] of `script`. */
const scriptedIngress = async (script: [number, object][]): Promise<{ url: string; seen: Seen[] }> => {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization, body });
      const [status, reply] = script[Math.min(seen.length - 1, script.length - 1)]!;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/helix/`, seen };
};

const client = (baseUrl: string) => createIngressClient({ baseUrl, bindingId: 'b 1', bearer: BEARER, retry: FAST });

describe('the ingress client', () => {
  it('retries a 503 with the same body (one request_id) and the bearer only in the header', async () => {
    const ingress = await scriptedIngress([
      [503, { code: 'unavailable' }],
      [503, {}],
      [200, { admitted: true }],
    ]);
    const reply = await client(ingress.url).post('manifest', { request_id: 'r1' }, new AbortController().signal);
    expect(reply).toEqual({ admitted: true });
    expect(ingress.seen).toHaveLength(3);
    expect(new Set(ingress.seen.map((s) => s.body))).toEqual(new Set(['{"request_id":"r1"}']));
    for (const s of ingress.seen) {
      expect(s.url).toBe('/helix/api/room-ingress/v1/bindings/b%201/manifest');
      expect(s.authorization).toBe(`Bearer ${BEARER}`);
    }
  });

  it('M-02: the action client posts to the action lane with its own bearer, retrying the same way', async () => {
    const helix = await scriptedIngress([
      [503, {}],
      [200, { controls: [], actions: [] }],
    ]);
    const actions = createActionClient({
      baseUrl: helix.url,
      bindingId: 'b 1',
      bearer: 'hlxact_0123456789abcdef',
      retry: FAST,
    });
    const reply = await actions.post('actions/pending', { request_id: 'r2' }, new AbortController().signal);
    expect(reply).toEqual({ controls: [], actions: [] });
    expect(helix.seen.map((s) => [s.url, s.authorization, s.body])).toEqual([
      [
        '/helix/api/room-actions/v1/bindings/b%201/actions/pending',
        'Bearer hlxact_0123456789abcdef',
        '{"request_id":"r2"}',
      ],
      [
        '/helix/api/room-actions/v1/bindings/b%201/actions/pending',
        'Bearer hlxact_0123456789abcdef',
        '{"request_id":"r2"}',
      ],
    ]);
  });

  it('does not retry a rejected credential and reports the code from the error body', async () => {
    const ingress = await scriptedIngress([
      [401, { schema: 'helix.shared_live_room.error.v1', code: 'source_credential_revoked', message: BEARER }],
    ]);
    const failure = await client(ingress.url)
      .post('heartbeat', {}, new AbortController().signal)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IngressError);
    expect(failure).toMatchObject({ status: 401, code: 'source_credential_revoked', credentialRejected: true });
    expect((failure as Error).message).not.toContain(BEARER);
    expect(ingress.seen).toHaveLength(1);
  });

  it('gives up after the bounded number of attempts', async () => {
    const ingress = await scriptedIngress([[500, {}]]);
    await expect(
      client(ingress.url).post('world-events/batch', {}, new AbortController().signal),
    ).rejects.toMatchObject({
      status: 500,
      retryable: true,
    });
    expect(ingress.seen).toHaveLength(FAST.maxAttempts);
  });

  it('does not retry a refused request (409 replay, 422 schema)', async () => {
    const ingress = await scriptedIngress([[409, { code: 'request_replayed' }]]);
    await expect(client(ingress.url).post('probes/result', {}, new AbortController().signal)).rejects.toMatchObject({
      status: 409,
      code: 'request_replayed',
      retryable: false,
    });
    expect(ingress.seen).toHaveLength(1);
  });

  it('backs off exponentially up to the ceiling, never below half the step', () => {
    const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 300, timeoutMs: 1 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy, () => 0))).toEqual([50, 100, 150, 150]);
    expect([1, 2, 3].map((n) => retryDelayMs(n, policy, () => 0.999_999))).toEqual([100, 200, 300]);
  });
});
