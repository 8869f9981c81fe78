import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for a Responses provider (the ChatGPT Codex backend or an OpenAI-compatible
 * API). Each path has a queue of scripted replies served in order; every request is recorded with
 * its parsed JSON body so tests can assert on exactly what went over the wire.
 */
export type ScriptedReply =
  /** A reply built from the request it answers (e.g. citing a ref the previous tool output carried). */
  | ((request: RecordedResponsesRequest) => ScriptedReply)
  /** An SSE body given inline (see `sseBody`). */
  | { readonly sseText: string }
  /** An SSE body read from test/fixtures/responses-sse/<fixture>. */
  | {
      readonly sse: string;
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
      readonly holdOpen?: boolean;
    }
  /** A JSON body (an error answer, a model list). */
  | { readonly json: unknown; readonly status?: number; readonly headers?: Readonly<Record<string, string>> }
  | { readonly redirectTo: string; readonly status?: 301 | 302 | 307 | 308 };

export interface RecordedResponsesRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when there was none. */
  readonly body: unknown;
}

export interface ResponsesFixtureServer {
  /** `http://127.0.0.1:<port>` with no trailing slash. */
  readonly origin: string;
  readonly requests: RecordedResponsesRequest[];
  /** Appends replies to the queue for `path` (the pathname, without query). */
  script(path: string, ...replies: ScriptedReply[]): void;
  /** Requests recorded for one pathname. */
  requestsTo(path: string): RecordedResponsesRequest[];
  /** Resolves once `count` requests have been recorded in total. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

export const readResponsesFixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/responses-sse/${name}`, import.meta.url), 'utf8');

/** Frames `[event type, data]` pairs the way the Responses backend does: `event: T` / `data: JSON`. */
export const sseBody = (events: readonly (readonly [string, unknown])[]): string =>
  events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`).join('');

const answer = (reply: ScriptedReply, response: ServerResponse, request: RecordedResponsesRequest): void => {
  if (typeof reply === 'function') {
    answer(reply(request), response, request);
    return;
  }
  if ('sseText' in reply) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.end(reply.sseText);
    return;
  }
  if ('redirectTo' in reply) {
    response.writeHead(reply.status ?? 307, { location: reply.redirectTo });
    response.end();
    return;
  }
  if ('sse' in reply) {
    response.writeHead(reply.status ?? 200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      ...reply.headers,
    });
    const body = readResponsesFixture(reply.sse);
    // Held-open streams model a provider that stalls mid-answer (abort tests).
    if (reply.holdOpen === true) response.write(body);
    else response.end(body);
    return;
  }
  response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
  response.end(JSON.stringify(reply.json));
};

export const startResponsesFixtureServer = async (): Promise<ResponsesFixtureServer> => {
  const requests: RecordedResponsesRequest[] = [];
  const queues = new Map<string, ScriptedReply[]>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const url = new URL(raw.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const recorded = {
        method: raw.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: raw.headers,
        body,
      };
      requests.push(recorded);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const reply = queues.get(url.pathname)?.shift();
      if (reply === undefined) {
        // Loud, and not a retryable 5xx: an unscripted request is a test bug, not a transient fault.
        response.writeHead(418, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { type: 'fixture_error', message: `no scripted reply for ${url.pathname}` } }),
        );
        return;
      }
      answer(reply, response, recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    script: (path, ...replies) => queues.set(path, [...(queues.get(path) ?? []), ...replies]),
    requestsTo: (path) => requests.filter((request) => request.path === path),
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
