import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { PinnedAddress } from './resolveDestination.js';

/**
 * `fetch` whose connection may only go to addresses already checked (src/net/resolveDestination.ts).
 * The global fetch resolves the host again when it connects, which reopens the gap the check just
 * closed (DNS rebinding), and Node 20 does not expose the undici Agent it would need to be told
 * otherwise. So the request goes through node:http(s) with a `lookup` that answers only the
 * checked addresses; TLS still verifies the certificate against the URL's hostname. The answer is
 * a standard `Response`, and a failure rejects as fetch does (`TypeError('fetch failed')` with
 * the cause), so callers read it exactly like the global fetch's.
 */
export type PinnedFetch = (url: string, init: RequestInit, addresses: readonly PinnedAddress[]) => Promise<Response>;

/** undici's defaults (the global fetch), so a pinned request waits as long as any other would. */
export const CONNECT_TIMEOUT_MS = 10_000;
export const IDLE_TIMEOUT_MS = 300_000;

/** Statuses whose answer has no body (Fetch standard "null body status"). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

const familyOf = (family: unknown): 4 | 6 | undefined =>
  family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : undefined;

/** Answers the socket's lookup with the checked addresses only, never a new resolution. */
const pinnedLookup =
  (addresses: readonly PinnedAddress[]): LookupFunction =>
  (_hostname, options, callback) => {
    const family = familyOf(options.family);
    const usable = family === undefined ? addresses : addresses.filter((entry) => entry.family === family);
    const first = usable[0];
    if (first === undefined) {
      callback(Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all === true)
      callback(
        null,
        usable.map((entry) => ({ address: entry.address, family: entry.family })),
      );
    else callback(null, first.address, first.family);
  };

const requestBody = (body: RequestInit['body']): string | undefined => {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  throw new TypeError('a pinned request body must be a string');
};

const toResponse = (answer: IncomingMessage, method: string): Response => {
  const status = answer.statusCode ?? 0;
  const headers = new Headers();
  const raw = answer.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
  const empty = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
  if (empty) answer.resume();
  const body = empty ? null : (Readable.toWeb(answer) as unknown as ReadableStream<Uint8Array>);
  // Throws RangeError for a status outside 200-599: the peer did not speak HTTP as fetch knows it.
  return new Response(body, { status, statusText: answer.statusMessage ?? '', headers });
};

const fetchFailed = (cause: unknown): TypeError => new TypeError('fetch failed', { cause });

/** One pinned fetch with its own keep-alive pools; every pooled socket was opened to a checked address. */
export const createPinnedFetch = (): PinnedFetch => {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  return (url, init, addresses) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const method = (init.method ?? 'GET').toUpperCase();
      const body = requestBody(init.body);
      const headers = Object.fromEntries(new Headers(init.headers));
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const request = (secure ? httpsRequest : httpRequest)(target, {
        method,
        headers,
        agent: secure ? agents.https : agents.http,
        lookup: pinnedLookup(addresses),
        ...(init.signal === undefined || init.signal === null ? {} : { signal: init.signal }),
      });
      request.once('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => request.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })),
          CONNECT_TIMEOUT_MS,
        );
        const clear = (): void => clearTimeout(timer);
        socket.once(secure ? 'secureConnect' : 'connect', clear);
        socket.once('close', clear);
      });
      request.setTimeout(IDLE_TIMEOUT_MS, () =>
        request.destroy(Object.assign(new Error('idle timeout'), { code: 'ETIMEDOUT' })),
      );
      request.once('response', (answer) => {
        try {
          resolve(toResponse(answer, method));
        } catch (error) {
          answer.destroy();
          reject(fetchFailed(error));
        }
      });
      request.once('error', (error) => reject(init.signal?.aborted === true ? init.signal.reason : fetchFailed(error)));
      request.end(body);
    });
};
