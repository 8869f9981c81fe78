import { afterEach, describe, expect, it } from 'vitest';
import {
  replyWith,
  startReplayServer,
  type Responder,
  type ReplayServer,
} from '../../../test/fixtures/sources/replayServer.js';
import { fetchBoundedJson, fetchBoundedText } from './boundedFetch.js';
import { SourceUnavailableError } from './sourceUnavailableError.js';

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const serve = async (respond: Responder) => {
  const server = await startReplayServer(respond);
  servers.push(server);
  return server;
};

const SECRET = 's3cret-token-value';
const request = (origin: string, overrides: { timeoutMs?: number; signal?: AbortSignal; maxBytes?: number } = {}) => ({
  capabilityId: 'test.fetch',
  url: new URL(`${origin}/search?token=${SECRET}`),
  timeoutMs: overrides.timeoutMs ?? 2_000,
  signal: overrides.signal ?? new AbortController().signal,
  ...(overrides.maxBytes === undefined ? {} : { maxBytes: overrides.maxBytes }),
});

const failureOf = async (promise: Promise<unknown>): Promise<SourceUnavailableError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceUnavailableError);
  const failure = error as SourceUnavailableError;
  expect(failure.code).toBe('source_unavailable');
  expect(failure.capabilityId).toBe('test.fetch');
  // Endpoints may carry API keys in their query; no failure may print them.
  expect(failure.message).not.toContain(SECRET);
  expect(failure.message).not.toContain('127.0.0.1');
  return failure;
};

describe('fetchBoundedText', () => {
  it('times out on a server that never answers, within the timeout', async () => {
    const server = await serve(() => undefined);
    const failure = await failureOf(fetchBoundedJson(request(server.origin, { timeoutMs: 150 })));
    expect(failure.failure).toBe('timeout');
  });

  it('times out on a server that sends headers and then stalls the body', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"results": [');
    });
    const failure = await failureOf(fetchBoundedJson(request(server.origin, { timeoutMs: 150 })));
    expect(failure.failure).toBe('timeout');
  });

  it('re-throws cancellation of the turn as the abort reason, not as a source failure', async () => {
    const server = await serve(() => undefined);
    const controller = new AbortController();
    const pending = fetchBoundedJson(request(server.origin, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('turn cancelled')), 50);
    await expect(pending).rejects.toThrow('turn cancelled');
  });

  it('refuses a non-JSON media type', async () => {
    const server = await serve(replyWith(200, 'text/html', '<html>captcha</html>'));
    expect((await failureOf(fetchBoundedJson(request(server.origin)))).failure).toBe('unexpected_content_type');
  });

  it('refuses a body that claims JSON but is not', async () => {
    const server = await serve(replyWith(200, 'application/json', '{"results": [}'));
    expect((await failureOf(fetchBoundedJson(request(server.origin)))).failure).toBe('malformed_response');
  });

  it('refuses an oversized body announced by Content-Length', async () => {
    const server = await serve(replyWith(200, 'application/json', JSON.stringify({ results: 'x'.repeat(4096) })));
    expect((await failureOf(fetchBoundedJson(request(server.origin, { maxBytes: 1024 })))).failure).toBe('too_large');
  });

  it('refuses an oversized chunked body while streaming it', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 64; i += 1) response.write('x'.repeat(1024));
      response.end();
    });
    expect((await failureOf(fetchBoundedJson(request(server.origin, { maxBytes: 8 * 1024 })))).failure).toBe(
      'too_large',
    );
  });

  it('refuses redirects and never contacts the redirect target', async () => {
    const target = await serve(replyWith(200, 'application/json', '{"results": []}'));
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: `${target.origin}/elsewhere` });
      response.end();
    });
    expect((await failureOf(fetchBoundedJson(request(server.origin)))).failure).toBe('redirect');
    expect(target.requests).toHaveLength(0);
  });

  it('reports a non-2xx status with the status', async () => {
    const server = await serve(replyWith(503, 'application/json', '{}'));
    const failure = await failureOf(fetchBoundedJson(request(server.origin)));
    expect(failure).toMatchObject({ failure: 'http_status', status: 503 });
  });

  it('sends only Accept and User-Agent: no Authorization, no cookies', async () => {
    const server = await serve(replyWith(200, 'application/atom+xml; charset=utf-8', '<feed/>'));
    expect(await fetchBoundedText({ ...request(server.origin), expect: 'xml' })).toBe('<feed/>');
    const headers = server.requests[0]?.headers ?? {};
    expect(headers.authorization).toBeUndefined();
    expect(headers['proxy-authorization']).toBeUndefined();
    expect(headers.cookie).toBeUndefined();
    expect(headers['user-agent']).toBe('helix-sources/0.1');
  });
});
