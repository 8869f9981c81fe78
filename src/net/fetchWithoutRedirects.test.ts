import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loopbackPeers } from '../../test/support/loopbackPeers.js';
import { loadConfig } from '../config.js';
import { startTelemetry, type StopTelemetry } from '../telemetry/startTelemetry.js';
import { fetchWithoutRedirects, RedirectRefusedError, refusingRedirects } from './fetchWithoutRedirects.js';

const loopback = loopbackPeers();
const spans = new InMemorySpanExporter();
let stop: StopTelemetry | undefined;
beforeAll(async () => {
  stop = await startTelemetry(loadConfig({}).telemetry, () => undefined, { spanExporter: spans });
});
afterAll(async () => {
  await stop?.();
  await loopback.close();
});
afterEach(() => spans.reset());

const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('the fetch that refuses redirects', () => {
  it('answers a 3xx with RedirectRefusedError naming the status and origin only, and never contacts the target', async () => {
    const target = await loopback.answering(200, '{}');
    const redirecting = await loopback.answering(307, '', {
      location: `http://127.0.0.1:${target.port}/elsewhere`,
    });
    const error = await rejection(
      fetchWithoutRedirects(`http://127.0.0.1:${redirecting.port}/v1/responses?key=secret-9f`, { method: 'POST' }),
    );
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect(error).toMatchObject({ status: 307, origin: `http://127.0.0.1:${redirecting.port}` });
    expect((error as Error).message).not.toContain('secret-9f');
    expect(redirecting.reached()).toBe(1);
    expect(target.reached()).toBe(0);
  });

  it('hands any other answer back as it came, error statuses included', async () => {
    for (const [status, body] of [
      [200, '{"ok":true}'],
      [404, '{"error":"missing"}'],
    ] as const) {
      const peer = await loopback.answering(status, body);
      const response = await fetchWithoutRedirects(`http://127.0.0.1:${peer.port}/v1/models`, { method: 'GET' });
      expect(response.status).toBe(status);
      expect(await response.text()).toBe(body);
    }
  });

  it('wraps any send: the composed send is called with redirect "manual" and the caller\'s init', async () => {
    const seen: RequestInit[] = [];
    const send = refusingRedirects(async (_url, init) => {
      seen.push(init);
      return new Response('pinned', { status: 200 });
    });
    const response = await send('http://models.pinned.test/v1', { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('pinned');
    expect(seen).toEqual([{ method: 'POST', body: '{}', redirect: 'manual' }]);
  });

  it("is one client span per call: method, host, port, status and the caller's attributes, never the path or query", async () => {
    const peer = await loopback.answering(200, '{}');
    await fetchWithoutRedirects(
      `http://127.0.0.1:${peer.port}/search?q=private-term-4c`,
      { method: 'GET' },
      { 'helix.capability_id': 'web.search' },
    );
    const [span] = spans.getFinishedSpans();
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.name).toBe('GET');
    expect(span?.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': peer.port,
      'http.response.status_code': 200,
      'helix.capability_id': 'web.search',
    });
    expect(JSON.stringify({ name: span?.name, attributes: span?.attributes, events: span?.events })).not.toContain(
      'private-term-4c',
    );
  });

  it('an error status marks its span failed, its error type the status (HTTP semantic conventions)', async () => {
    const peer = await loopback.answering(503, '{}');
    const response = await fetchWithoutRedirects(`http://127.0.0.1:${peer.port}/search`, { method: 'GET' });
    expect(response.status).toBe(503);
    const [span] = spans.getFinishedSpans();
    expect(span?.attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': '503' });
    expect(span?.status.code).toBe(2);
  });

  it('a refused redirect marks its span failed, with the status it refused', async () => {
    const peer = await loopback.answering(302, '', { location: 'http://169.254.169.254/' });
    await rejection(fetchWithoutRedirects(`http://127.0.0.1:${peer.port}/token`, { method: 'POST' }));
    const [span] = spans.getFinishedSpans();
    expect(span?.attributes).toMatchObject({
      'http.response.status_code': 302,
      'error.type': 'RedirectRefusedError',
    });
    expect(span?.status.code).toBe(2);
  });
});
