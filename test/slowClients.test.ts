import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { api, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

/** Opens a raw TCP connection and collects everything the server sends until it closes. */
const rawConnection = async (url: string) => {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed, received: () => received };
};

// Issue 11, item 6: 1,000 sockets trickling one byte per 10 s exhausted the file descriptors.
describe('slow and greedy clients', () => {
  let h: TestHelix;
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, {
      env: {
        HELIX_HTTP_HEADERS_TIMEOUT_MS: '1000',
        HELIX_HTTP_REQUEST_TIMEOUT_MS: '2000',
        HELIX_HTTP_MAX_CONNECTIONS_PER_IP: '6',
        HELIX_AGENT_IP_RATE_LIMIT: '0',
      },
    });
  });
  afterAll(() => h.close());

  it('a trickled body is cut off at the request deadline with a 408 in the error vocabulary', async () => {
    const token = await h.key();
    const c = await rawConnection(h.url);
    c.socket.write(
      `POST /api/v1/agent-runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nIdempotency-Key: trickle-0001\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`,
    );
    const trickle = setInterval(() => c.socket.writable && c.socket.write(' '), 250);
    try {
      // The server closing it is the event; were the deadline not enforced, the trickle would hold it
      // open and the test would end at its ceiling.
      await c.closed;
    } finally {
      clearInterval(trickle);
    }
    const response = c.received();
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(response).toMatch(/\r\nx-request-id: req_[0-9a-f]{24}\r\n/i);
    expect(response).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 'request_timeout',
      status: 408,
    });
  });

  it('a connection that never finishes its headers is closed at the headers deadline', async () => {
    const c = await rawConnection(h.url);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('oversized headers get a 431 with a request id and no-store', async () => {
    const c = await rawConnection(h.url);
    c.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 431 /);
    expect(c.received()).toMatch(/\r\nx-request-id: req_/i);
    expect(c.received()).toContain('"code":"request_header_too_large"');
  });

  // Issue 27, item 16 (SLR-04: mutation responses carry Idempotency-Replayed): a mutation cut off
  // by the parser was not replayed either, and says so like every other refused mutation.
  it('a mutation answered 408 or 431 by the parser says Idempotency-Replayed: false', async () => {
    const token = await h.key();
    const trickled = await rawConnection(h.url);
    trickled.socket.write(
      `POST /api/v1/agent-runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nIdempotency-Key: trickle-0002\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`,
    );
    const headersUnfinished = await rawConnection(h.url);
    headersUnfinished.socket.write(
      'POST /api/v1/agent-runs HTTP/1.1\r\nHost: 127.0.0.1\r\nIdempotency-Key: slow-0003\r\n',
    );
    const oversized = await rawConnection(h.url);
    oversized.socket.write(
      `POST /api/v1/agent-runs HTTP/1.1\r\nHost: 127.0.0.1\r\nIdempotency-Key: big-00004\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    await Promise.all([trickled, headersUnfinished, oversized].map((c) => c.closed));
    expect(trickled.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(headersUnfinished.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(oversized.received()).toMatch(/^HTTP\/1\.1 431 /);
    for (const c of [trickled, headersUnfinished, oversized])
      expect(c.received()).toMatch(/\r\nidempotency-replayed: false\r\n/i);
  });

  it('malformed HTTP gets a 400 in the error vocabulary', async () => {
    const c = await rawConnection(h.url);
    c.socket.write('NOT HTTP AT ALL\r\n\r\n');
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(c.received()).toContain('"code":"invalid_request"');
    expect(c.received()).toMatch(/\r\ncache-control: no-store\r\n/i);
  });

  it('one address cannot hold more than its share of connections; freed slots serve again and /healthz answers', async () => {
    const held = await Promise.all(Array.from({ length: 6 }, () => rawConnection(h.url)));
    const extra = await rawConnection(h.url);
    await extra.closed;
    expect(extra.received()).toBe('');
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await api(h.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('a long poll is a response, not a slow request: it is not cut off by the request deadline', async () => {
    const token = await h.key();
    const run = await api(h.url, 'POST', '/api/v1/agent-runs', {
      token,
      idempotencyKey: 'long-poll-run-1',
      body: { objective: 'wait' },
    });
    const poll = await api(h.url, 'GET', `/api/v1/agent-runs/${run.body.run_id}/events?after_seq=1&wait_ms=3000`, {
      token,
    });
    expect(poll.status).toBe(200);
    expect(poll.body.events).toEqual([]);
  });
});

describe('slow-client configuration', () => {
  it('refuses a request deadline shorter than the headers deadline', () => {
    expect(() =>
      loadConfig({ HELIX_HTTP_HEADERS_TIMEOUT_MS: '20000', HELIX_HTTP_REQUEST_TIMEOUT_MS: '10000' }),
    ).toThrow(ConfigError);
  });
});
