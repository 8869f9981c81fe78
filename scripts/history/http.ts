/**
 * One HTTP exchange over loopback, reduced to what a history needs: the status, headers and parsed
 * body, or why there is none. A refused connection never reached a server; a timeout or reset
 * did not answer, so the request may or may not have taken effect.
 */
export type HttpAnswer =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Headers; readonly body: unknown }
  | { readonly kind: 'lost'; readonly reason: string }
  | { readonly kind: 'not_sent' };

export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly token: string;
  readonly idempotencyKey?: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export const exchange = async (baseUrl: string, request: HttpRequest): Promise<HttpAnswer> => {
  const headers: Record<string, string> = { authorization: `Bearer ${request.token}`, ...request.headers };
  if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    const text = await response.text();
    return { kind: 'response', status: response.status, headers: response.headers, body: parse(text) };
  } catch (err) {
    if (causeCode(err) === 'ECONNREFUSED') return { kind: 'not_sent' };
    return { kind: 'lost', reason: causeCode(err) ?? (err as Error).name };
  }
};

const parse = (text: string): unknown => {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
};

const causeCode = (err: unknown): string | undefined => {
  const cause = (err as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
};
