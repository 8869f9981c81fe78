import { describe, expect, it } from 'vitest';
import { ModelError } from '../port.js';
import {
  classifyHttpFailure,
  classifyProviderError,
  parseRetryAfter,
  parseTryAgainIn,
  providerErrorFrom,
  safeProviderMessage,
  toModelError,
} from './failures.js';
import { withoutSecrets } from '../maskSecrets.js';

const NOW = Date.UTC(2026, 0, 1, 0, 0, 0);

const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('parseTryAgainIn', () => {
  it.each([
    ['Please try again in 11.054s. Visit …', 11_054],
    ['Please try again in 250ms.', 250],
    ['try again in 2s', 2_000],
    ['Please try again later.', undefined],
    [undefined, undefined],
  ])('%s → %s', (message, expected) => expect(parseTryAgainIn(message)).toBe(expected));
});

describe('parseRetryAfter', () => {
  it('prefers retry-after-ms, then delta-seconds, then an HTTP date relative to now', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), NOW)).toBe(1_500);
    expect(parseRetryAfter(new Headers({ 'retry-after': '9' }), NOW)).toBe(9_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': new Date(NOW + 30_000).toUTCString() }), NOW)).toBe(30_000);
  });

  it('ignores absent or unreadable values and never returns a negative wait', () => {
    expect(parseRetryAfter(new Headers(), NOW)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), NOW)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '-4' }), NOW)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': new Date(NOW - 5_000).toUTCString() }), NOW)).toBe(0);
  });
});

describe('classifyProviderError', () => {
  it.each([
    ['context_length_exceeded', 'context_length', false],
    ['insufficient_quota', 'quota', false],
    ['usage_not_included', 'quota', false],
    ['rate_limit_exceeded', 'rate_limited', true],
    ['server_is_overloaded', 'server', true],
    ['slow_down', 'server', true],
    ['invalid_prompt', 'bad_request', false],
  ])('%s → %s, retryable %s', (code, kind, retryable) => {
    const error = classifyProviderError({ code, message: 'm' });
    expect(error.kind).toBe(kind);
    expect(error.details.retryable).toBe(retryable);
    expect(error.details.providerCode).toBe(code);
  });

  it('retries an unknown code only when its name says overload or a server fault', () => {
    expect(classifyProviderError({ type: 'service_unavailable_error' }).details.retryable).toBe(true);
    expect(classifyProviderError({ code: 'something_new' }).details.retryable).toBe(false);
  });

  it('unsupported_parameter names the parameter and is final', () => {
    const error = classifyProviderError({
      code: 'unsupported_parameter',
      param: 'reasoning.summary',
      message: 'Unsupported parameter',
    });
    expect(error.kind).toBe('unsupported_parameter');
    expect(error.details).toMatchObject({ retryable: false, param: 'reasoning.summary' });
    expect(error.message).toContain('reasoning.summary');
  });

  it('masks token-shaped text in provider messages', () => {
    expect(safeProviderMessage('Incorrect API key provided: sk-proj-abcdef123456')).not.toContain(
      'sk-proj-abcdef123456',
    );
    expect(classifyProviderError({ code: 'x', message: 'Bearer eyJhbGciOi.payload.sig' }).message).not.toContain(
      'eyJhbGciOi',
    );
  });
});

describe('classifyHttpFailure', () => {
  it('a 429 usage_limit_reached is a final quota error that says when it resets', async () => {
    const error = await classifyHttpFailure(
      jsonResponse(
        429,
        {
          error: {
            type: 'usage_limit_reached',
            message: 'The usage limit has been reached',
            plan_type: 'plus',
            resets_at: 1767229200,
          },
        },
        { 'retry-after': '3600' },
      ),
      NOW,
    );
    expect(error.kind).toBe('quota');
    expect(error.details).toMatchObject({
      retryable: false,
      resetsAt: 1767229200_000,
      httpStatus: 429,
      retryAfterMs: 3_600_000,
    });
    expect(error.message).toContain('2026-01-01T01:00:00.000Z');
  });

  it('a usage limit without resets_at falls back to retry-after for the reset time', async () => {
    const error = await classifyHttpFailure(
      jsonResponse(429, { error: { type: 'usage_limit_reached' } }, { 'retry-after': '60' }),
      NOW,
    );
    expect(error.details.resetsAt).toBe(NOW + 60_000);
  });

  it('a plain 429 rate limit is retryable with the stated wait', async () => {
    const error = await classifyHttpFailure(
      jsonResponse(
        429,
        { error: { code: 'rate_limit_exceeded', message: 'Please try again in 1.5s' } },
        { 'retry-after-ms': '700' },
      ),
      NOW,
    );
    expect(error.details).toMatchObject({ retryable: true, retryAfterMs: 700 });
  });

  it('401 is auth and does not echo the body', async () => {
    const error = await classifyHttpFailure(
      jsonResponse(401, { error: { message: 'token sk-secret-value-123456 expired' } }),
      NOW,
    );
    expect(error.kind).toBe('auth');
    expect(error.message).not.toContain('sk-secret');
  });

  it('a 5xx with an unreadable body is a retryable server error; a 400 with one is a bad request', async () => {
    const server = await classifyHttpFailure(new Response('<html>bad gateway</html>', { status: 502 }), NOW);
    expect(server).toMatchObject({ kind: 'server', details: { retryable: true, httpStatus: 502 } });
    expect(server.message).not.toContain('html');
    const bad = await classifyHttpFailure(new Response('nope', { status: 400 }), NOW);
    expect(bad).toMatchObject({ kind: 'bad_request', details: { retryable: false } });
  });

  it('a 400 unsupported_parameter body keeps the param; a 503 with an unknown code is still retried', async () => {
    const unsupported = await classifyHttpFailure(
      jsonResponse(400, {
        error: {
          type: 'invalid_request_error',
          code: 'unsupported_parameter',
          param: 'reasoning.summary',
          message: 'no',
        },
      }),
      NOW,
    );
    expect(unsupported).toMatchObject({
      kind: 'unsupported_parameter',
      details: { param: 'reasoning.summary', retryable: false },
    });
    const odd = await classifyHttpFailure(jsonResponse(503, { error: { code: 'weird_thing', message: 'x' } }), NOW);
    expect(odd.details.retryable).toBe(true);
  });
});

describe('toModelError', () => {
  it('an abort wins over whatever was thrown; network faults are retryable transport errors', () => {
    const controller = new AbortController();
    expect(toModelError(new TypeError('fetch failed'), controller.signal)).toMatchObject({
      kind: 'transport',
      details: { retryable: true },
    });
    controller.abort();
    expect(toModelError(new DOMException('aborted', 'AbortError'), controller.signal).kind).toBe('aborted');
    const typed = new ModelError('quota', 'q', { retryable: false });
    expect(toModelError(typed, new AbortController().signal)).toBe(typed);
  });
});

describe('hostile provider fields', () => {
  it('a resets_at no Date can hold is ignored (the reset time falls back to retry-after) instead of throwing', async () => {
    for (const resetsAt of [1e20, -5, 'soon']) {
      const error = await classifyHttpFailure(
        jsonResponse(429, { error: { type: 'usage_limit_reached', resets_at: resetsAt } }, { 'retry-after': '60' }),
        NOW,
      );
      expect(error).toMatchObject({ kind: 'quota', details: { retryable: false, resetsAt: NOW + 60_000 } });
    }
  });

  it('free text in code, type, param or plan_type never reaches the message or details', async () => {
    const leak = 'key gw-live-0123456789 rejected';
    const stated = providerErrorFrom({ type: leak, code: leak, param: leak, message: 'no' });
    expect(stated).toEqual({ type: undefined, code: undefined, param: undefined, message: 'no' });
    const http = await classifyHttpFailure(jsonResponse(400, { error: leak }), NOW);
    expect(JSON.stringify({ message: http.message, details: http.details })).not.toContain('gw-live');
    const limit = await classifyHttpFailure(
      jsonResponse(429, { error: { type: 'usage_limit_reached', plan_type: leak, resets_at: 1767229200 } }),
      NOW,
    );
    expect(limit.message).not.toContain('gw-live');
    // Identifier-shaped names are kept as they are.
    expect(providerErrorFrom({ code: 'rate_limit_exceeded', param: 'input[0].content' })).toMatchObject({
      code: 'rate_limit_exceeded',
      param: 'input[0].content',
    });
  });

  it('withoutSecrets masks a known secret of any shape in the message and stack, and drops fields that carry one', () => {
    const key = 'plain-gateway-key-42';
    const error = classifyProviderError({
      code: 'invalid_api_key',
      message: `The key ${key} is not valid for account acct-7f3e0000-1111`,
    });
    const masked = withoutSecrets(error, [key, 'acct-7f3e0000-1111', 'ab']);
    expect(masked.message).not.toContain(key);
    expect(masked.message).not.toContain('acct-7f3e0000-1111');
    expect(masked.stack).not.toContain(key);
    expect(masked).toMatchObject({ kind: error.kind, details: { providerCode: 'invalid_api_key' } });
    expect(withoutSecrets(classifyProviderError({ code: key }), [key]).details.providerCode).toBeUndefined();
    expect(withoutSecrets(error, [])).toBe(error);
  });
});
