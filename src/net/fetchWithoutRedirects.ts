import { type Attributes, type Span, SpanStatusCode } from '@opentelemetry/api';
import { ATTR, inClientSpan } from '../telemetry/instruments.js';

/** The fetch every outbound call goes through: the global fetch's shape, the URL as text. */
export type HttpFetch = (url: string, init: RequestInit) => Promise<Response>;

/** `send`, refusing redirects, with attributes for the call's client span (e.g. the capability id). */
export type NoRedirectFetch = (url: string, init: RequestInit, spanAttributes?: Attributes) => Promise<Response>;

/** The server answered with a redirect, which was not followed. Its message names the origin only. */
export class RedirectRefusedError extends Error {
  override readonly name = 'RedirectRefusedError';
  constructor(
    readonly status: number,
    readonly origin: string,
  ) {
    super(`refused an HTTP ${status} redirect from ${origin}`);
  }
}

/** OpenTelemetry HTTP semantic conventions: a client span whose answer is 4xx or 5xx is an error, its type the status. */
const recordStatus = (span: Span, status: number): void => {
  span.setAttribute(ATTR.httpStatus, status);
  if (status < 400) return;
  span.setAttribute(ATTR.errorType, String(status));
  span.setStatus({ code: SpanStatusCode.ERROR });
};

/**
 * The one way Helix sends an HTTP request to another server: `send` (the global fetch, or a
 * connection pinned to checked addresses, src/net/pinnedConnectionFetch.ts) told never to follow
 * a redirect. Credential-bearing bodies, account headers, prompts and search terms must not leave
 * the origin they were addressed to, and a redirect could move a request to a host nobody
 * configured or checked (docs/spec/codex-subscription-protocol.md). A 3xx is RedirectRefusedError,
 * not a hop; its body is cancelled, so the connection is not held.
 *
 * Each call is one OpenTelemetry client span (src/telemetry/instruments.ts `inClientSpan`): method,
 * host, port and answer status, never the path or query. The span ends when the answer's headers
 * arrive; reading the body is the caller's.
 */
export const refusingRedirects =
  (send: HttpFetch): NoRedirectFetch =>
  (url, init, spanAttributes = {}) => {
    const target = new URL(url);
    return inClientSpan(init.method ?? 'GET', target, spanAttributes, async (span) => {
      const response = await send(url, { ...init, redirect: 'manual' });
      recordStatus(span, response.status);
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => undefined);
        throw new RedirectRefusedError(response.status, target.origin);
      }
      return response;
    });
  };

/** The global fetch, refusing redirects. */
export const fetchWithoutRedirects: NoRedirectFetch = refusingRedirects((url, init) => fetch(url, init));
