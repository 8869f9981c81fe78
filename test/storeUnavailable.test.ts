// Issue 27, item 14: with PostgreSQL down every request answered `500 internal_error`; the
// documented answer is `503 store_unavailable` with `Retry-After: 1` (docs/configuration.md
// "Database"), over REST and as the MCP tool error. The server is real; the outage is a TCP relay
// in front of it that stops listening and cuts every connection, as a crashed or unreachable
// database server would.
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/openStore.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { rawMcp } from './support/mcpClient.js';
import { createPostgresDatabase } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
const adminUrl = process.env.HELIX_TEST_POSTGRES_URL;

/** A TCP relay to `target`; `cut()` closes its port and every connection through it. */
const startRelay = async (target: URL) => {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined).once('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    cut: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
};

describe.skipIf(adminUrl === undefined || adminUrl === '')('PostgreSQL unreachable under a running server', () => {
  let h: TestHelix;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let drop: () => Promise<void>;
  let token = '';
  let runId = '';

  beforeAll(async () => {
    const database = await createPostgresDatabase(adminUrl!);
    drop = database.drop;
    relay = await startRelay(new URL(database.url));
    const store = await openStore(relay.url);
    h = await startTestHelix(
      {
        name: 'postgres behind a relay',
        create: async () => ({ store, location: relay.url, dispose: () => store.close() }),
      },
      { env: { HELIX_AGENT_IP_RATE_LIMIT: '0', HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0', HELIX_MCP_IP_RATE_LIMIT: '0' } },
    );
    token = await h.key();
    const started = await api(h.url, 'POST', RUNS, { token, idempotencyKey: idemKey(), body: { objective: 'before' } });
    expect(started.status).toBe(201);
    runId = String(started.body.run_id);
    await relay.cut();
  }, 60_000);
  afterAll(async () => {
    await h?.close().catch(() => undefined);
    await drop?.();
  });

  it('REST reads and mutations answer 503 store_unavailable with Retry-After: 1, never 500', async () => {
    const answers = [
      await api(h.url, 'GET', `${RUNS}/${runId}`, { token }),
      await api(h.url, 'GET', `${RUNS}?limit=5`, { token }),
      await api(h.url, 'POST', RUNS, { token, idempotencyKey: idemKey(), body: { objective: 'during' } }),
      await api(h.url, 'POST', `${RUNS}/${runId}/cancel`, {
        token,
        idempotencyKey: idemKey(),
        body: { expected_version: 1 },
      }),
      // A key the server has never seen needs the store to be checked at all.
      await api(h.url, 'GET', `${RUNS}/${runId}`, { token: `hlx_${'A'.repeat(43)}` }),
    ];
    for (const answer of answers) {
      expect([answer.status, answer.body?.code]).toEqual([503, 'store_unavailable']);
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(answers[2]!.headers.get('idempotency-replayed')).toBe('false');
  });

  it('an MCP tool call gets the store_unavailable tool error (or the plain HTTP 503 before JSON-RPC)', async () => {
    const answer = await rawMcp(
      h.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'helix_run_inspect', arguments: { run_id: runId } },
      },
      { authorization: `Bearer ${token}` },
    );
    if (answer.status === 503) {
      expect(answer.body.code).toBe('store_unavailable');
      expect(answer.headers.get('retry-after')).toBe('1');
    } else {
      expect(answer.status).toBe(200);
      expect(answer.body.result.isError).toBe(true);
      expect(answer.body.result.structuredContent).toMatchObject({
        code: 'store_unavailable',
        status: 503,
        retry_after_seconds: 1,
      });
    }
  });
});
