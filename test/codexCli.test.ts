import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentAfterTerminalRefresh, documentFromLogin } from '../src/model/codex/credentialDocument.js';
import { FileCredentialDocumentStore } from '../src/model/codex/credentialStore.js';
import { startCodexAuthServer, type CodexAuthServer } from './support/codexAuthServer.js';
import { runCli } from './support/processes.js';

let auth: CodexAuthServer;
let home: string;
let env: Record<string, string>;

beforeEach(async () => {
  auth = await startCodexAuthServer();
  home = await mkdtemp(join(tmpdir(), 'helix-codex-cli-'));
  env = { HELIX_CODEX_TEST_ORIGIN: auth.origin, HELIX_HOME: home };
});
afterEach(async () => {
  await auth.close();
  await rm(home, { recursive: true, force: true });
});

describe('helix login/logout codex and helix auth status', () => {
  // Seven CLI processes in a row: each pays the tsx start-up, slow on a loaded machine.
  it('logs in with a device code, reports status, and logs out, never printing secrets', { timeout: 90_000 }, async () => {
    auth.device.pendingPolls = 1;
    const login = await runCli(['login', 'codex', '--device'], env);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`${auth.origin}/codex/device`);
    expect(login.stdout).toContain('ABCD-1234');
    expect(login.stdout).toContain('Logged in to Codex');

    const path = join(home, 'codex', 'local.json');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'codex'))).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(path, 'utf8')) as { tokens: Record<string, string>; account_id: string };
    expect(stored.account_id).toBe(auth.accountId);
    expect(auth.grants('authorization_code')[0]?.fields['redirect_uri']).toBe(`${auth.origin}/deviceauth/callback`);

    const json = await runCli(['auth', 'status', '--json'], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ provider: 'codex-subscription', state: 'logged-in', document_version: 2 });
    const text = await runCli(['auth', 'status'], env);
    expect(text.stdout).toContain('codex-subscription: logged in (owner local)');

    const logout = await runCli(['logout', 'codex'], env);
    expect(logout.stdout).toContain('Removed the Codex login for owner local.');
    const again = await runCli(['logout', 'codex'], env);
    expect(again.stdout).toContain('There was no Codex login for owner local.');
    const after = await runCli(['auth', 'status', '--json'], env);
    expect(JSON.parse(after.stdout)).toMatchObject({ state: 'logged-out', document_version: null });

    const secrets = [stored.tokens['access_token']!, stored.tokens['refresh_token']!, stored.tokens['id_token']!, stored.account_id];
    const expiry = stored.tokens['expires_at']!;
    for (const run of [login, json, text, logout, again, after]) {
      for (const secret of secrets) {
        expect(run.stdout).not.toContain(secret);
        expect(run.stderr).not.toContain(secret);
      }
      expect(run.stdout + run.stderr).not.toContain(expiry);
    }
  });

  it('keeps logins apart by --owner and refuses an owner that is not a file name', { timeout: 60_000 }, async () => {
    const login = await runCli(['login', 'codex', '--device', '--owner', 'team-a'], env);
    expect(login.code).toBe(0);
    expect(JSON.parse((await runCli(['auth', 'status', '--json', '--owner', 'team-a'], env)).stdout)).toMatchObject({ state: 'logged-in' });
    expect(JSON.parse((await runCli(['auth', 'status', '--json'], env)).stdout)).toMatchObject({ state: 'logged-out' });
    const bad = await runCli(['auth', 'status', '--owner', '../x'], env);
    expect(bad.code).toBe(2);
  });

  it('fails clearly when device login is not enabled, and refuses a non-loopback test origin', async () => {
    auth.device.enabled = false;
    const login = await runCli(['login', 'codex', '--device'], env);
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('device login is not enabled');
    const remote = await runCli(['login', 'codex', '--device'], { ...env, HELIX_CODEX_TEST_ORIGIN: 'https://auth.example.com' });
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('loopback');
  });

  it('says when the stored login needs a reconnect, with the reason and nothing else', { timeout: 60_000 }, async () => {
    const tokens = await auth.mint({ expiresInSeconds: 3600 });
    const login = documentFromLogin(
      { idToken: tokens.id_token, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, expiresAt: Date.now() + 3_600_000, accountId: auth.accountId },
      Date.now(),
    );
    await new FileCredentialDocumentStore({ home }).mutate('local', async () => ({ next: documentAfterTerminalRefresh(login, 'refresh_token_reused', Date.now()), result: undefined }));
    const text = await runCli(['auth', 'status'], env);
    expect(text.stdout).toContain('reconnect required (refresh_token_reused');
    expect(text.stdout).toContain('helix login codex');
    const json = await runCli(['auth', 'status', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({ provider: 'codex-subscription', state: 'reconnect-required', reason: 'refresh_token_reused', document_version: 2 });
    for (const secret of [tokens.access_token, tokens.refresh_token, tokens.id_token, auth.accountId]) expect(text.stdout + json.stdout).not.toContain(secret);
  });
});
