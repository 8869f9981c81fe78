import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackPeers } from '../../test/support/loopbackPeers.js';
import { createPinnedFetch } from './pinnedConnectionFetch.js';

const loopback = loopbackPeers();
afterEach(() => loopback.close());
const listen = loopback.listen;

interface Seen {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

const recordingServer = (status = 200, reply = '{"ok":true}') => {
  const seen: Seen[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'application/json', 'x-answer': 'yes' });
      res.end(status === 204 ? undefined : reply);
    });
  });
  return { server, seen };
};

const causeCode = async (promise: Promise<unknown>): Promise<string | undefined> => {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).message).toBe('fetch failed');
  return ((error as Error).cause as { code?: string } | undefined)?.code;
};

describe('fetch pinned to checked addresses', () => {
  it('connects to the given address only, keeping the URL host for Host, and answers a standard Response', async () => {
    const { server, seen } = recordingServer();
    const port = await listen(server, '127.0.0.2');
    const send = createPinnedFetch();
    // `models.pinned.test` resolves nowhere: reaching the server proves the connection used the checked address.
    const response = await send(
      `http://models.pinned.test:${port}/v1/chat/completions`,
      { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"a":"é"}' },
      [{ address: '127.0.0.2', family: 4 }],
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-answer')).toBe('yes');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/v1/chat/completions',
        headers: expect.objectContaining({
          host: `models.pinned.test:${port}`,
          authorization: 'Bearer k',
          'content-length': String(Buffer.byteLength('{"a":"é"}')),
        }),
        body: '{"a":"é"}',
      },
    ]);
  });

  it('never falls back to resolving the name: with no address of the family asked for, it does not connect', async () => {
    const { server, seen } = recordingServer();
    const port = await listen(server, '127.0.0.1');
    const send = createPinnedFetch();
    expect(await causeCode(send(`http://localhost:${port}/`, { method: 'GET' }, []))).toBe('ENOTFOUND');
    expect(seen).toHaveLength(0);
  });

  it('connects to an IPv6 literal', async () => {
    const { server } = recordingServer();
    const port = await listen(server, '::1');
    const response = await createPinnedFetch()(`http://[::1]:${port}/`, { method: 'GET' }, [
      { address: '::1', family: 6 },
    ]);
    expect(response.status).toBe(200);
  });

  it('gives HTTP error statuses and null-body statuses as responses', async () => {
    const failing = recordingServer(500, '{"error":"boom"}');
    const empty = recordingServer(204);
    const send = createPinnedFetch();
    const at = [{ address: '127.0.0.1', family: 4 as const }];
    const five = await send(`http://127.0.0.1:${await listen(failing.server, '127.0.0.1')}/`, { method: 'GET' }, at);
    expect([five.status, await five.text()]).toEqual([500, '{"error":"boom"}']);
    const none = await send(`http://127.0.0.1:${await listen(empty.server, '127.0.0.1')}/`, { method: 'GET' }, at);
    expect([none.status, none.body]).toEqual([204, null]);
  });

  it('rejects like fetch for a closed port and for a peer that does not speak HTTP', async () => {
    const send = createPinnedFetch();
    const closed = await loopback.closedPort();
    expect(
      await causeCode(
        send(`http://127.0.0.1:${closed.port}/`, { method: 'GET' }, [{ address: '127.0.0.1', family: 4 }]),
      ),
    ).toBe('ECONNREFUSED');
    const garbage = await loopback.notHttp('SSH-2.0-OpenSSH_9.6\r\n\r\n');
    expect(
      await causeCode(
        send(`http://127.0.0.1:${garbage.port}/`, { method: 'GET' }, [{ address: '127.0.0.1', family: 4 }]),
      ),
    ).toMatch(/^HPE_/);
  });

  it('verifies TLS against the URL hostname, not the pinned address', async () => {
    const tls = await loopback.untrustedTls();
    const code = await causeCode(
      createPinnedFetch()(`https://models.pinned.test:${tls.port}/`, { method: 'GET' }, [
        { address: '127.0.0.1', family: 4 },
      ]),
    );
    expect(code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(tls.reached()).toBe(0);
  });

  it('rejects with the abort reason when the signal fires', async () => {
    const silent = createHttpServer(() => undefined);
    const port = await listen(silent, '127.0.0.1');
    const controller = new AbortController();
    const pending = createPinnedFetch()(`http://127.0.0.1:${port}/`, { method: 'GET', signal: controller.signal }, [
      { address: '127.0.0.1', family: 4 },
    ]);
    controller.abort(new Error('turn over'));
    await expect(pending).rejects.toThrow('turn over');
  });

  it('refuses a body it cannot send as given', async () => {
    await expect(
      createPinnedFetch()('http://127.0.0.1:9/', { method: 'POST', body: new Uint8Array([1]) }, [
        { address: '127.0.0.1', family: 4 },
      ]),
    ).rejects.toThrow(/must be a string/);
  });
});
