import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnsecuredJWT } from 'jose';
import { startCodexAuthServer, type CodexAuthServer } from '../../../test/support/codexAuthServer.js';
import { CODEX_ACCOUNT_CLAIM } from './endpoints.js';
import { accountIdFromTokens, jwtExpiry, providerErrorCode, refreshCodexTokens } from './tokenClient.js';

const jwt = (claims: Record<string, unknown>) => new UnsecuredJWT(claims).encode();

let auth: CodexAuthServer;
beforeEach(async () => {
  auth = await startCodexAuthServer();
});
afterEach(async () => {
  await auth.close();
});

describe('the token client', () => {
  it('reads the account id from the id_token first, then the access_token', () => {
    const id = jwt({ [CODEX_ACCOUNT_CLAIM]: { chatgpt_account_id: 'from-id' } });
    const access = jwt({ [CODEX_ACCOUNT_CLAIM]: { chatgpt_account_id: 'from-access' } });
    expect(accountIdFromTokens(id, access)).toBe('from-id');
    expect(accountIdFromTokens(jwt({ email: 'x' }), access)).toBe('from-access');
    expect(accountIdFromTokens('not-a-jwt', undefined)).toBeUndefined();
    expect(accountIdFromTokens(jwt({ [CODEX_ACCOUNT_CLAIM]: 'flat' }), undefined)).toBeUndefined();
  });

  it('reads the JWT exp as epoch ms', () => {
    expect(jwtExpiry(jwt({ exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
    expect(jwtExpiry(jwt({}))).toBeUndefined();
    expect(jwtExpiry('opaque')).toBeUndefined();
  });

  it('finds the provider error code in all three shapes', () => {
    expect(providerErrorCode({ error: { code: 'refresh_token_reused', message: 'm' } })).toBe('refresh_token_reused');
    expect(providerErrorCode({ error: 'invalid_grant', error_description: 'd' })).toBe('invalid_grant');
    expect(providerErrorCode({ code: 'refresh_token_expired' })).toBe('refresh_token_expired');
    expect(providerErrorCode({ message: 'nothing' })).toBeUndefined();
  });

  it('sends the refresh as the pinned form and treats a missing expires_in as 3600 s', async () => {
    auth.scriptRefresh({ kind: 'partial', fields: ['access_token'], omitExpiresIn: true });
    const refreshed = await refreshCodexTokens(
      { issuer: auth.origin, api: auth.origin },
      'rt-old',
      new AbortController().signal,
      () => 1_000,
    );
    expect(refreshed.expiresAt).toBe(1_000 + 3_600_000);
    expect(refreshed.refreshToken).toBeUndefined();
    expect(auth.grants('refresh_token')[0]?.fields).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'rt-old',
      client_id: 'app_EMoamEEZ73f0CkXaXp7hrann',
    });
  });

  it('classifies refresh failures: named codes and 401 terminal, the rest transient', async () => {
    const cases = [
      [
        { kind: 'error', status: 400, body: { error: { code: 'refresh_token_reused' } } },
        'refresh_rejected',
        'refresh_token_reused',
      ],
      [{ kind: 'error', status: 400, body: { error: 'invalid_grant' } }, 'refresh_rejected', 'invalid_grant'],
      [
        { kind: 'error', status: 400, body: { code: 'refresh_token_invalidated' } },
        'refresh_rejected',
        'refresh_token_invalidated',
      ],
      [
        { kind: 'error', status: 401, body: { error: { code: 'refresh_token_expired' } } },
        'refresh_rejected',
        'refresh_token_expired',
      ],
      [{ kind: 'error', status: 401, body: { error: 'whatever' } }, 'refresh_rejected', 'unauthorized'],
      [{ kind: 'error', status: 500, body: { error: 'server_error' } }, 'refresh_failed', undefined],
      [{ kind: 'error', status: 400, body: { error: 'invalid_request' } }, 'refresh_failed', undefined],
    ] as const;
    for (const [outcome, code, providerCode] of cases) {
      auth.scriptRefresh(outcome);
      const err = await refreshCodexTokens(
        { issuer: auth.origin, api: auth.origin },
        'rt',
        new AbortController().signal,
      ).catch((e: unknown) => e);
      expect(err).toMatchObject({ code, details: providerCode === undefined ? {} : { providerCode } });
    }
  });

  it('never puts free-text error fields (which can quote the refused token or code) into a message', async () => {
    const endpoints = { issuer: auth.origin, api: auth.origin };
    auth.scriptRefresh({ kind: 'error', status: 400, body: { error: 'refresh token rt-SECRET-VALUE is malformed' } });
    const refresh = await refreshCodexTokens(endpoints, 'rt-SECRET-VALUE', new AbortController().signal).catch(
      (e: unknown) => e,
    );
    expect(refresh).toMatchObject({ code: 'refresh_failed' });
    expect(
      JSON.stringify({ message: (refresh as Error).message, details: (refresh as { details: unknown }).details }),
    ).not.toContain('SECRET');
    // An unknown code is still shown when it is identifier-shaped.
    auth.scriptRefresh({ kind: 'error', status: 400, body: { error: 'invalid_request' } });
    expect(
      (await refreshCodexTokens(endpoints, 'rt', new AbortController().signal).catch((e: unknown) => e)) as Error,
    ).toHaveProperty('message', expect.stringContaining('invalid_request'));
  });

  it('does not buffer an endless token response: the refresh fails as transient', async () => {
    let cancelled = false;
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const endless = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"access_token":"');
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      response.on('close', () => (cancelled = true));
      pump();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`;
    try {
      const err = await refreshCodexTokens({ issuer: origin, api: origin }, 'rt', new AbortController().signal).catch(
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'refresh_failed' });
      await expect.poll(() => cancelled).toBe(true);
    } finally {
      endless.closeAllConnections();
      await new Promise<void>((resolve) => endless.close(() => resolve()));
    }
  });
});
