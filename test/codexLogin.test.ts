import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBrowserLogin, type PendingBrowserLogin } from '../src/model/codex/browserLogin.js';
import { codexAuthStatus, saveCodexLogin } from '../src/model/codex/codexCredentials.js';
import { FileCredentialDocumentStore } from '../src/model/codex/credentialStore.js';
import type { CodexEndpoints } from '../src/model/codex/endpoints.js';
import { startCodexAuthServer, type CodexAuthServer } from './support/codexAuthServer.js';

let auth: CodexAuthServer;
let endpoints: CodexEndpoints;
const servers: Server[] = [];
const pending: PendingBrowserLogin[] = [];

beforeEach(async () => {
  auth = await startCodexAuthServer();
  endpoints = { issuer: auth.origin, api: auth.origin };
});
afterEach(async () => {
  await Promise.all(pending.splice(0).map((p) => p.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await auth.close();
});

/** Holds a port like a stale program would; records the requests it receives. */
const occupy = async (): Promise<{ port: number; paths: string[] }> => {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? '');
    response.end('still here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, paths };
};

const start = async (options: Partial<Parameters<typeof startBrowserLogin>[0]> = {}) => {
  const login = await startBrowserLogin({ endpoints, sleep: async () => undefined, ...options });
  pending.push(login);
  return login;
};

/** Plays the browser: the authorization server answers with a redirect to the loopback callback. */
const authorizeInBrowser = async (authorizeUrl: string): Promise<string> => {
  const response = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return response.headers.get('location')!;
};

const visit = async (url: string) => {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, text: await response.text() };
};

describe('browser login', () => {
  it('completes end to end: authorize, loopback callback, code exchange, private document', async () => {
    const home = await mkdtemp(join(tmpdir(), 'helix-codex-login-'));
    try {
      auth.omitExpiresIn = true;
      // Port 0: the OS picks; the login reports the port it bound and names it in the redirect.
      const login = await start({ ports: [0] });
      const port = login.port!;
      expect(port).toBeGreaterThan(0);
      expect(new URL(login.authorizeUrl).searchParams.get('redirect_uri')).toBe(
        `http://localhost:${port}/auth/callback`,
      );
      const callback = await authorizeInBrowser(login.authorizeUrl);
      const before = Date.now();
      const [page, tokens] = await Promise.all([visit(callback), login.waitForCallback()]);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Signed in');
      expect(tokens.accountId).toBe(auth.accountId);
      expect(tokens.expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);

      const [exchange] = auth.grants('authorization_code');
      expect(Object.keys(exchange!.fields).sort()).toEqual([
        'client_id',
        'code',
        'code_verifier',
        'grant_type',
        'redirect_uri',
      ]);
      expect(exchange!.fields.redirect_uri).toBe(`http://localhost:${port}/auth/callback`);

      const store = new FileCredentialDocumentStore({ home });
      await saveCodexLogin(store, 'local', tokens);
      expect((await stat(store.pathOf('local'))).mode & 0o777).toBe(0o600);
      expect(await codexAuthStatus(store, 'local')).toEqual({
        provider: 'codex-subscription',
        state: 'logged-in',
        document_version: 2,
      });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('refuses a callback with another state and exchanges nothing', async () => {
    auth.authorize = { kind: 'wrong-state' };
    const login = await start({ ports: [0] });
    const callback = await authorizeInBrowser(login.authorizeUrl);
    const [page, outcome] = await Promise.all([visit(callback), login.waitForCallback().catch((e: unknown) => e)]);
    expect(page.status).toBe(400);
    expect(outcome).toMatchObject({ code: 'state_mismatch' });
    expect(auth.grants('authorization_code')).toHaveLength(0);
  });

  it('explains a missing Codex entitlement', async () => {
    auth.authorize = { kind: 'error', error: 'access_denied', description: 'missing_codex_entitlement' };
    const login = await start({ ports: [0] });
    const callback = await authorizeInBrowser(login.authorizeUrl);
    const [page, outcome] = await Promise.all([visit(callback), login.waitForCallback().catch((e: unknown) => e)]);
    expect(outcome).toMatchObject({ code: 'missing_entitlement' });
    expect((outcome as Error).message).toContain('this account has no Codex entitlement');
    expect(page.text).toContain('no Codex entitlement');
  });

  it('reports other authorization errors with their code', async () => {
    auth.authorize = { kind: 'error', error: 'access_denied', description: 'user said no' };
    const login = await start({ ports: [0] });
    const callback = await authorizeInBrowser(login.authorizeUrl);
    const [, outcome] = await Promise.all([visit(callback), login.waitForCallback().catch((e: unknown) => e)]);
    expect(outcome).toMatchObject({ code: 'authorization_denied', details: { providerCode: 'access_denied' } });
  });

  it('asks an old server on a busy port to cancel, then falls back to the next port', async () => {
    const busy = await occupy();
    const login = await start({ ports: [busy.port, 0] });
    expect(busy.paths).toEqual(['/cancel']);
    const fallback = login.port!;
    expect([0, busy.port]).not.toContain(fallback);
    expect(new URL(login.authorizeUrl).searchParams.get('redirect_uri')).toBe(
      `http://localhost:${fallback}/auth/callback`,
    );
    const callback = await authorizeInBrowser(login.authorizeUrl);
    const [, tokens] = await Promise.all([visit(callback), login.waitForCallback()]);
    expect(tokens.accountId).toBe(auth.accountId);
  });

  it('takes a pasted redirect URL when no port can be bound', async () => {
    const busy = await occupy();
    const login = await start({ ports: [busy.port] });
    expect(login.port).toBeUndefined();
    await expect(login.waitForCallback()).rejects.toMatchObject({ code: 'no_callback_port' });
    const redirected = await authorizeInBrowser(login.authorizeUrl);
    expect(new URL(redirected).port).toBe(String(busy.port));
    const tokens = await login.completeWithPastedUrl(`  ${redirected}\n`);
    expect(tokens.accountId).toBe(auth.accountId);
    expect(auth.grants('authorization_code')[0]?.fields.redirect_uri).toBe(
      `http://localhost:${busy.port}/auth/callback`,
    );
  });

  it('in paste mode binds nothing and names the first preferred port', async () => {
    const login = await start({ paste: true });
    expect(login.port).toBeUndefined();
    expect(new URL(login.authorizeUrl).searchParams.get('redirect_uri')).toBe('http://localhost:1455/auth/callback');
    await expect(login.completeWithPastedUrl('not a url')).rejects.toMatchObject({ code: 'invalid_callback' });
    await expect(
      login.completeWithPastedUrl('http://localhost:1455/auth/callback?code=abc&state=forged'),
    ).rejects.toMatchObject({ code: 'state_mismatch' });
    expect(auth.grants('authorization_code')).toHaveLength(0);
  });

  it('stops on timeout, on abort, and when a newer login sends /cancel', async () => {
    const timed = await start({ ports: [0], timeoutMs: 20 });
    await expect(timed.waitForCallback()).rejects.toMatchObject({ code: 'login_timeout' });

    const controller = new AbortController();
    const aborted = await start({ ports: [0] });
    const waiting = aborted.waitForCallback(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });

    const old = await start({ ports: [0] });
    const port = old.port!;
    const oldWait = old.waitForCallback().catch((e: unknown) => e);
    // The newer login retries the port once the old one has shut down, not after wall-clock time.
    const newer = await start({ ports: [port], sleep: () => oldWait.then(() => undefined) });
    expect(await oldWait).toMatchObject({ code: 'login_cancelled' });
    expect(newer.port).toBe(port);
  });
});
