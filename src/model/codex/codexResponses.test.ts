import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rejectsWithModelError } from '../../../test/support/modelErrors.js';
import { generate, type ModelRequest } from '../port.js';
import { CodexResponsesClient } from './codexResponses.js';
import type { CodexAccess } from './credentials.js';

/**
 * A failed Codex turn keeps what the backend stated (docs/spec/codex-subscription-protocol.md: the
 * stated `type`, `code` and `message` are "carried in the failure the turn ends with"). Every
 * answer below is a recorded wire fixture (test/fixtures/responses-sse) or that shape, replayed
 * through the real client, transport, SSE adapter, retry and secret masking.
 */
const fixture = (name: string): string =>
  readFileSync(new URL(`../../../test/fixtures/responses-sse/${name}`, import.meta.url), 'utf8');

const ACCESS: CodexAccess = {
  accessToken: 'eyJhbGciOiJSUzI1NiJ9.access-token-fixture.sig',
  accountId: 'acct-7f3e2b91-fixture',
};

const sse = (body: string) => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const clientAnswering = (answer: () => Response) =>
  new CodexResponsesClient({
    credentials: { access: async () => ACCESS, afterUnauthorized: async () => ACCESS },
    endpoints: { issuer: 'https://auth.fixture', api: 'https://chatgpt.fixture' },
    version: '0.1.0',
    fetchImpl: async () => answer(),
    // A single attempt: what the last attempt stated is what the turn ends with either way.
    retry: { maxAttempts: 1, sleep: async () => undefined },
  });

const request = (): ModelRequest => ({
  model: 'gpt-5.1-codex',
  instructions: 'You are Helix.',
  input: [{ type: 'message', role: 'user', text: 'hi' }],
  tools: [],
  signal: new AbortController().signal,
});

const failureOf = (answer: () => Response) => rejectsWithModelError(generate(clientAnswering(answer), request()));

describe('a failed Codex call keeps the provider-stated type, code and message', () => {
  it('`response.failed` with response.error {code, message}', async () => {
    const error = await failureOf(() => sse(fixture('failed-usage-not-included.sse')));
    expect(error.kind).toBe('quota');
    expect(error.details).toMatchObject({
      providerCode: 'usage_not_included',
      providerMessage: 'Your plan does not include Codex usage.',
    });
  });

  it('the in-stream `error` event {type, code, message}', async () => {
    const error = await failureOf(() => sse(fixture('error-top-level.sse')));
    expect(error.kind).toBe('server');
    expect(error.details).toMatchObject({
      providerType: 'error',
      providerCode: 'server_error',
      providerMessage: 'The server had an error while processing your request. Sorry about that!',
    });
  });

  it('an HTTP 429 usage_limit_reached body', async () => {
    const body = JSON.parse(fixture('usage-limit-reached.429.json'));
    const error = await failureOf(() => json(429, body));
    expect(error.kind).toBe('quota');
    expect(error.details).toMatchObject({
      providerType: 'usage_limit_reached',
      providerMessage: 'The usage limit has been reached',
      httpStatus: 429,
    });
  });

  it('an HTTP 5xx {"error":{type, code, message}} body', async () => {
    const error = await failureOf(() =>
      json(503, { error: { type: 'server_error', code: 'server_is_overloaded', message: 'Overloaded, try later.' } }),
    );
    expect(error.details).toMatchObject({
      providerType: 'server_error',
      providerCode: 'server_is_overloaded',
      providerMessage: 'Overloaded, try later.',
      httpStatus: 503,
    });
  });

  it('the stated message is sanitized: bounded, control characters stripped, no token or account id', async () => {
    const message = `bad \u0000request\u001b[31m\u202e for Bearer ${ACCESS.accessToken} account ${ACCESS.accountId} ${'x'.repeat(2_000)}`;
    const error = await failureOf(() => json(400, { error: { type: 'invalid_request_error', code: 'bad', message } }));
    const stated = error.details.providerMessage ?? '';
    expect(stated.startsWith('bad  request [31m  for [redacted] account [redacted]')).toBe(true);
    expect(stated).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    expect([...stated].length).toBeLessThanOrEqual(501);
    for (const secret of [ACCESS.accessToken, ACCESS.accountId, 'access-token-fixture'])
      expect(JSON.stringify(error.details) + error.message).not.toContain(secret);
  });
});
