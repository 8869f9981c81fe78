import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentAfterTerminalRefresh, documentFromLogin } from '../src/model/codex/credentialDocument.js';
import { FileCredentialDocumentStore } from '../src/model/codex/credentialStore.js';
import { CODEX_CLIENT_ID, CODEX_SCOPE } from '../src/model/codex/endpoints.js';
import { startCodexAuthServer, type CodexAuthServer } from './support/codexAuthServer.js';
import { runCli } from './support/processes.js';
import { ceilingFor } from './support/ceilings.js';

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
  it('logs in with a device code, reports status, and logs out, never printing secrets', {
    timeout: ceilingFor(6),
  }, async () => {
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
    expect(auth.grants('authorization_code')[0]?.fields.redirect_uri).toBe(`${auth.origin}/deviceauth/callback`);

    const json = await runCli(['auth', 'status', '--json'], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      provider: 'codex-subscription',
      state: 'logged-in',
      document_version: 2,
    });
    const text = await runCli(['auth', 'status'], env);
    expect(text.stdout).toContain('codex-subscription: logged in (owner local)');

    const logout = await runCli(['logout', 'codex'], env);
    expect(logout.stdout).toContain('Removed the Codex login for owner local.');
    const again = await runCli(['logout', 'codex'], env);
    expect(again.stdout).toContain('There was no Codex login for owner local.');
    const after = await runCli(['auth', 'status', '--json'], env);
    expect(JSON.parse(after.stdout)).toMatchObject({ state: 'logged-out', document_version: null });

    const secrets = [
      stored.tokens.access_token!,
      stored.tokens.refresh_token!,
      stored.tokens.id_token!,
      stored.account_id,
    ];
    const expiry = stored.tokens.expires_at!;
    for (const run of [login, json, text, logout, again, after]) {
      for (const secret of secrets) {
        expect(run.stdout).not.toContain(secret);
        expect(run.stderr).not.toContain(secret);
      }
      expect(run.stdout + run.stderr).not.toContain(expiry);
    }
  });

  it('keeps logins apart by --owner and refuses an owner that is not a file name', {
    timeout: ceilingFor(4),
  }, async () => {
    const login = await runCli(['login', 'codex', '--device', '--owner', 'team-a'], env);
    expect(login.code).toBe(0);
    expect(JSON.parse((await runCli(['auth', 'status', '--json', '--owner', 'team-a'], env)).stdout)).toMatchObject({
      state: 'logged-in',
    });
    expect(JSON.parse((await runCli(['auth', 'status', '--json'], env)).stdout)).toMatchObject({ state: 'logged-out' });
    const bad = await runCli(['auth', 'status', '--owner', '../x'], env);
    expect(bad.code).toBe(2);
  });

  it('fails clearly when device login is not enabled, and refuses a non-loopback test origin', {
    timeout: ceilingFor(2),
  }, async () => {
    auth.device.enabled = false;
    const login = await runCli(['login', 'codex', '--device'], env);
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('device login is not enabled');
    const remote = await runCli(['login', 'codex', '--device'], {
      ...env,
      HELIX_CODEX_TEST_ORIGIN: 'https://auth.example.com',
    });
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('loopback');
  });

  it('refuses callback ports it was told without a test issuer, naming the variable', {
    timeout: ceilingFor(1),
  }, async () => {
    const { HELIX_CODEX_TEST_ORIGIN: _origin, ...realIssuer } = env;
    const login = await runCli(['login', 'codex', '--no-browser'], {
      ...realIssuer,
      HELIX_CODEX_TEST_CALLBACK_PORTS: '0',
    });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('HELIX_CODEX_TEST_CALLBACK_PORTS needs HELIX_CODEX_TEST_ORIGIN');
    expect(login.stdout).not.toContain('oauth/authorize');
  });

  it('says when the stored login needs a reconnect, with the reason and nothing else', {
    timeout: ceilingFor(2),
  }, async () => {
    const tokens = await auth.mint({ expiresInSeconds: 3600 });
    const login = documentFromLogin(
      {
        idToken: tokens.id_token,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt: Date.now() + 3_600_000,
        accountId: auth.accountId,
      },
      Date.now(),
    );
    await new FileCredentialDocumentStore({ home }).mutate('local', async () => ({
      next: documentAfterTerminalRefresh(login, 'refresh_token_reused', Date.now()),
      result: undefined,
    }));
    const text = await runCli(['auth', 'status'], env);
    expect(text.stdout).toContain('reconnect required (refresh_token_reused');
    expect(text.stdout).toContain('helix login codex');
    const json = await runCli(['auth', 'status', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({
      provider: 'codex-subscription',
      state: 'reconnect-required',
      reason: 'refresh_token_reused',
      document_version: 2,
    });
    for (const secret of [tokens.access_token, tokens.refresh_token, tokens.id_token, auth.accountId])
      expect(text.stdout + json.stdout).not.toContain(secret);
  });
});

/** A CLI child still running: the test reads its output as it comes and may type on its stdin. */
interface LiveCli {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout so far; rejects if the CLI exits first. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  readonly exitCode: Promise<number>;
}

const live: LiveCli[] = [];

/** Like runCli, but returns at once with stdin piped (spawnTs ignores stdin; --paste reads it). */
const startCli = (args: readonly string[], env: Record<string, string>): LiveCli => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: new URL('../', import.meta.url),
    env: { ...process.env, HELIX_LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exitCode = once(child, 'exit').then(([code]) => (code as number | null) ?? -1);
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const found = pattern.exec(stdout);
        if (found === null) return;
        child.stdout.off('data', check);
        resolve(found);
      };
      child.stdout.on('data', check);
      check();
      void exitCode.then((code) =>
        reject(
          new Error(
            `the CLI exited with ${code} before printing ${String(pattern)}; stdout: ${stdout}; stderr: ${stderr}`,
          ),
        ),
      );
    });
  const cli = { child, stdout: () => stdout, stderr: () => stderr, printed, exitCode };
  live.push(cli);
  return cli;
};

const AUTHORIZE_LINE = /^ {2}(http:\/\/\S+\/oauth\/authorize\?\S+)$/m;

/** The browser's part up to the redirect: the issuer answers the authorize URL with a 302 to the callback. */
const authorizeInBrowser = async (authorizeUrl: string): Promise<string> => {
  const response = await fetch(authorizeUrl, { redirect: 'manual' });
  await response.body?.cancel();
  expect(response.status).toBe(302);
  return response.headers.get('location')!;
};

/** Holds a port of its own the way an older, stuck login would, recording the paths it is asked for. */
const occupy = async (): Promise<{ server: Server; port: number; paths: string[] }> => {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? '');
    response.end('still here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, paths };
};

/**
 * The callback ports the CLI is told to try. The real 1455/1457 belong to whatever else runs on
 * the machine; 0 lets the CLI bind any free port and name it in the authorize URL it prints.
 */
const withCallbackPorts = (...ports: number[]) => ({ ...env, HELIX_CODEX_TEST_CALLBACK_PORTS: ports.join(',') });

/** The port the CLI bound, as it tells the user: the redirect URI of the authorize URL. */
const boundPort = (authorizeUrl: string): number => {
  const redirect = new URL(new URL(authorizeUrl).searchParams.get('redirect_uri')!);
  expect(redirect.hostname).toBe('localhost');
  expect(redirect.pathname).toBe('/auth/callback');
  return Number(redirect.port);
};

const closeServer = async (server: Server): Promise<void> => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
};

const documentPath = () => join(home, 'codex', 'local.json');

const expectNoSecretsPrinted = async (cli: LiveCli): Promise<void> => {
  const stored = JSON.parse(await readFile(documentPath(), 'utf8')) as {
    tokens: Record<string, string>;
    account_id: string;
  };
  const secrets = [
    stored.tokens.access_token!,
    stored.tokens.refresh_token!,
    stored.tokens.id_token!,
    stored.account_id,
  ];
  expect(stored.account_id).toBe(auth.accountId);
  for (const secret of secrets) expect(cli.stdout() + cli.stderr()).not.toContain(secret);
};

// Every CLI here binds a callback port the OS picked (HELIX_CODEX_TEST_CALLBACK_PORTS=0), never 1455/1457.
describe('helix login codex with a browser (PKCE and the loopback callback)', () => {
  const blockers: Server[] = [];
  afterEach(async () => {
    for (const cli of live.splice(0)) {
      if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
      await cli.exitCode;
    }
    await Promise.all(blockers.splice(0).map(closeServer));
  });

  it('prints the authorize URL, takes the browser back on the callback, and stores the login', {
    timeout: ceilingFor(2),
  }, async () => {
    const cli = startCli(['login', 'codex', '--no-browser'], withCallbackPorts(0));
    const authorizeUrl = (await cli.printed(AUTHORIZE_LINE))[1]!;
    const port = boundPort(authorizeUrl);
    expect(port).toBeGreaterThan(0);
    await cli.printed(new RegExp(`Waiting for the browser to return to http://localhost:${port}/auth/callback`));

    const url = new URL(authorizeUrl);
    expect(url.origin + url.pathname).toBe(`${auth.origin}/oauth/authorize`);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      client_id: CODEX_CLIENT_ID,
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: `http://localhost:${port}/auth/callback`,
      scope: CODEX_SCOPE,
      originator: 'helix',
      id_token_add_organizations: 'true',
      codex_cli_simplified_flow: 'true',
    });
    expect(query.state).toMatch(/^[\w-]{32,}$/);
    expect(query.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(cli.stdout()).toContain(`http://localhost:${port}/auth/callback`);

    const callback = await authorizeInBrowser(authorizeUrl);
    expect(callback.startsWith(`http://localhost:${port}/auth/callback?`)).toBe(true);
    const page = await fetch(callback);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed in to Codex');

    expect(await cli.exitCode).toBe(0);
    expect(cli.stderr()).toBe('');
    expect(cli.stdout()).toContain('Logged in to Codex (ChatGPT subscription) for owner local');
    expect((await stat(documentPath())).mode & 0o777).toBe(0o600);
    expect(auth.grants('authorization_code')[0]?.fields.redirect_uri).toBe(`http://localhost:${port}/auth/callback`);
    await expectNoSecretsPrinted(cli);

    const status = await runCli(['auth', 'status', '--json'], env);
    expect(JSON.parse(status.stdout)).toEqual({
      provider: 'codex-subscription',
      state: 'logged-in',
      document_version: 2,
    });
  });

  it('asks a login still holding its first port to cancel, then falls back to the next', {
    timeout: ceilingFor(1),
  }, async () => {
    const holder = await occupy();
    blockers.push(holder.server);

    // As 1455 then 1457 in production: the held port first, then the fallback (any free port).
    const cli = startCli(['login', 'codex', '--no-browser'], withCallbackPorts(holder.port, 0));
    const authorizeUrl = (await cli.printed(AUTHORIZE_LINE))[1]!;
    const fallback = boundPort(authorizeUrl);
    expect(fallback).not.toBe(holder.port);
    expect(fallback).toBeGreaterThan(0);
    // The official CLI's courtesy to an older login on the port: one GET /cancel before moving on.
    expect(holder.paths).toEqual(['/cancel']);
    await cli.printed(new RegExp(`Waiting for the browser to return to http://localhost:${fallback}/auth/callback`));

    const page = await fetch(await authorizeInBrowser(authorizeUrl));
    expect(page.status).toBe(200);
    await page.body?.cancel();
    expect(await cli.exitCode).toBe(0);
    expect(auth.grants('authorization_code')[0]?.fields.redirect_uri).toBe(
      `http://localhost:${fallback}/auth/callback`,
    );
    await expectNoSecretsPrinted(cli);
  });

  it('with --paste reads the redirect URL from stdin and stores the login', { timeout: ceilingFor(1) }, async () => {
    const cli = startCli(['login', 'codex', '--paste'], env);
    const authorizeUrl = (await cli.printed(AUTHORIZE_LINE))[1]!;
    await cli.printed(/paste it here, then press Enter:/);
    expect(cli.stdout()).not.toContain('Waiting for the browser');
    // Nothing listens in paste mode: the redirect names the first preferred port and the page may not load.
    expect(new URL(authorizeUrl).searchParams.get('redirect_uri')).toBe('http://localhost:1455/auth/callback');

    const redirected = await authorizeInBrowser(authorizeUrl);
    // A user pastes and presses Enter; the terminal stays open, so stdin does not end.
    cli.child.stdin!.write(`\n  ${redirected}  \n`);
    expect(await cli.exitCode).toBe(0);
    expect(cli.stdout()).toContain('Logged in to Codex');
    expect((await stat(documentPath())).mode & 0o777).toBe(0o600);
    expect(auth.grants('authorization_code')[0]?.fields.redirect_uri).toBe('http://localhost:1455/auth/callback');
    await expectNoSecretsPrinted(cli);
  });

  it('with --paste refuses a redirect URL whose state is not its own, and an empty paste', {
    timeout: ceilingFor(2),
  }, async () => {
    const cli = startCli(['login', 'codex', '--paste'], env);
    const authorizeUrl = (await cli.printed(AUTHORIZE_LINE))[1]!;
    const forged = new URL(await authorizeInBrowser(authorizeUrl));
    forged.searchParams.set('state', 'forged-state');
    cli.child.stdin!.end(`${forged.toString()}\n`);
    expect(await cli.exitCode).toBe(1);
    expect(cli.stderr()).toContain('helix: login failed: the login callback carried a different state');
    expect(auth.grants('authorization_code')).toHaveLength(0);
    await expect(stat(documentPath())).rejects.toMatchObject({ code: 'ENOENT' });

    const empty = startCli(['login', 'codex', '--paste'], env);
    await empty.printed(/paste it here/);
    empty.child.stdin!.end();
    expect(await empty.exitCode).toBe(1);
    expect(empty.stderr()).toContain('helix: no redirect URL was pasted');
    await expect(stat(documentPath())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stops on Ctrl-C, whether it waits for the browser or for a paste', { timeout: ceilingFor(2) }, async () => {
    // The CLI installs its own SIGINT handler, so Ctrl-C must reach whatever the login is waiting on.
    const pasting = startCli(['login', 'codex', '--paste'], env);
    await pasting.printed(/paste it here/);
    pasting.child.kill('SIGINT');
    expect(await pasting.exitCode).toBe(130);
    expect(pasting.stderr()).toContain('helix: login failed: the login was aborted');

    const waiting = startCli(['login', 'codex', '--no-browser'], withCallbackPorts(0));
    await waiting.printed(/Waiting for the browser/);
    waiting.child.kill('SIGINT');
    expect(await waiting.exitCode).toBe(130);
    expect(waiting.stderr()).toContain('helix: login failed: the login was aborted');
    await expect(stat(documentPath())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails with the entitlement message when the issuer denies an account without Codex', {
    timeout: ceilingFor(1),
  }, async () => {
    auth.authorize = { kind: 'error', error: 'access_denied', description: 'missing_codex_entitlement' };
    const cli = startCli(['login', 'codex', '--no-browser'], withCallbackPorts(0));
    const authorizeUrl = (await cli.printed(AUTHORIZE_LINE))[1]!;
    await cli.printed(/Waiting for the browser/);
    const page = await fetch(await authorizeInBrowser(authorizeUrl));
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('no Codex entitlement');
    expect(await cli.exitCode).toBe(1);
    expect(cli.stderr()).toContain(
      'helix: login failed: this account has no Codex entitlement: sign in with a ChatGPT plan that includes Codex',
    );
    expect(auth.grants('authorization_code')).toHaveLength(0);
    await expect(stat(documentPath())).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
