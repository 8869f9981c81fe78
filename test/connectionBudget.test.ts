// Issue 27, item 1: 4 source addresses × 250 trickling sockets used up the 1,024 descriptors and
// /healthz failed while the per-address cap (issue 11, item 6) held. Now every connection counts
// against one budget below the descriptor limit, and a new connection displaces the oldest one that
// is not being answered. Loopback is 127.0.0.0/8 on Linux: each 127.0.0.x is a client address.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { startServerProcess, type ServerProcess } from './support/processes.js';
import { storeFlavours } from './support/stores.js';

/** A connection from `localAddress` that sends the start of a request and never finishes its headers. */
const slowSocket = async (url: string, localAddress: string) => {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port), localAddress });
  socket.on('error', () => undefined);
  let closed = false;
  const whenClosed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  await Promise.race([new Promise((resolve) => socket.once('connect', resolve)), whenClosed]);
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
  return { socket, whenClosed, closed: () => closed };
};

const slowSockets = async (url: string, addresses: readonly string[], perAddress: number) => {
  const sockets = [];
  for (const address of addresses) for (let i = 0; i < perAddress; i++) sockets.push(await slowSocket(url, address));
  return sockets;
};

/** GET /healthz on a fresh connection from `localAddress`: its status, or 'failed' if none came. */
const healthzFrom = (url: string, localAddress: string): Promise<number | 'failed'> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const req = request({ host: hostname, port, path: '/healthz', localAddress, agent: false }, (res) => {
      res.resume().once('end', () => resolve(res.statusCode ?? 'failed'));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.once('error', () => resolve('failed')).end();
  });

const ATTACKERS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
const SLOW = { HELIX_HTTP_HEADERS_TIMEOUT_MS: '60000', HELIX_HTTP_REQUEST_TIMEOUT_MS: '60000' };

describe('a server whose process may open only 256 descriptors (ulimit -n 256)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-fd-budget-'));
  let server: ServerProcess;
  let held: Awaited<ReturnType<typeof slowSockets>> = [];
  beforeAll(async () => {
    server = await startServerProcess(
      join(dir, 'helix.db'),
      { ...SLOW, HELIX_HTTP_MAX_CONNECTIONS_PER_IP: '100', HELIX_AGENT_IP_RATE_LIMIT: '0' },
      { openFileLimit: 256 },
    );
  }, 60_000);
  afterAll(async () => {
    for (const c of held) c.socket.destroy();
    await server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /healthz while 4 addresses hold 90 slow sockets each, more than the descriptors allow', async () => {
    held = await slowSockets(server.url, ATTACKERS, 90);
    const probes = [];
    for (let i = 0; i < 5; i++) probes.push(await healthzFrom(server.url, '127.0.0.1'));
    expect(probes).toEqual([200, 200, 200, 200, 200]);
    // The budget made room by closing the oldest slow sockets, not the newest.
    await held[0]!.whenClosed;
    expect(held.at(-1)!.closed()).toBe(false);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});

describe('HELIX_HTTP_MAX_CONNECTIONS: one budget over every address', () => {
  let h: TestHelix;
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, {
      env: {
        ...SLOW,
        HELIX_HTTP_MAX_CONNECTIONS: '20',
        HELIX_HTTP_MAX_CONNECTIONS_PER_IP: '6',
        HELIX_AGENT_IP_RATE_LIMIT: '0',
        HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
      },
    });
  });
  afterAll(() => h.close());

  it('sheds the oldest slow sockets for new ones; a request being answered (a long poll) is never shed', async () => {
    const token = await h.key();
    const run = await api(h.url, 'POST', '/api/v1/agent-runs', {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'wait' },
    });
    const runId = String(run.body.run_id);
    // A long poll: its request has fully arrived and is being answered when the slow sockets come.
    const arrived = new Promise((resolve) => h.helix.app.server.once('request', resolve));
    const poll = api(h.url, 'GET', `/api/v1/agent-runs/${runId}/events?after_seq=1&wait_ms=25000`, { token });
    poll.catch(() => undefined);
    await arrived;

    const slow = await slowSockets(h.url, ATTACKERS, 6);
    // 25 connections for 20 places: the five oldest slow ones gave way (after any idle keep-alive one).
    await Promise.all(slow.slice(0, 5).map((c) => c.whenClosed));
    expect(slow.flatMap((c, i) => (i >= 5 && c.closed() ? [i] : []))).toEqual([]);
    expect(await healthzFrom(h.url, '127.0.0.6')).toBe(200);

    const cancel = await api(h.url, 'POST', `/api/v1/agent-runs/${runId}/cancel`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 1 },
    });
    expect(cancel.status).toBe(200);
    const woken = await poll;
    expect(woken.status).toBe(200);
    expect((woken.body.events as { kind: string }[]).map((e) => e.kind)).toContain('run.cancelled');
    for (const c of slow) c.socket.destroy();
  });
});

describe('HELIX_HTTP_MAX_CONNECTIONS configuration', () => {
  it('is a whole number from 1; unset, it is derived from the descriptor limit', () => {
    expect(loadConfig({ HELIX_HTTP_MAX_CONNECTIONS: '500' }).httpLimits.maxConnections).toBe(500);
    expect(loadConfig({}).httpLimits.maxConnections).toBeUndefined();
    for (const bad of ['0', '-1', 'many', '1.5'])
      expect(() => loadConfig({ HELIX_HTTP_MAX_CONNECTIONS: bad })).toThrow(ConfigError);
  });
});
