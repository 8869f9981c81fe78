import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { followSignInLink } from './support/consoleSession.js';
import { runCli, startCliServer } from './support/processes.js';
import { ceilingFor } from './support/ceilings.js';

describe('helix accounts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-accounts-'));
  const database = join(dir, 'helix.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates an account, links a verified identity, lists without subjects or tenants, and signs a browser in', {
    timeout: ceilingFor(11),
  }, async () => {
    const created = await runCli(['accounts', 'create', '--name', 'Alice', '--database', database]);
    expect(created.code, created.stderr).toBe(0);
    const accountId = created.stdout.trimEnd().split('\n').at(-1)!;
    expect(accountId).toMatch(/^acct_[0-9a-f]{24}$/);

    const link = [
      'accounts',
      'link',
      '--account',
      accountId,
      '--issuer',
      'https://login.example.com',
      '--tenant',
      'acme-tenant',
      '--subject',
      'subject-42',
      '--provider',
      'idp',
      '--database',
      database,
    ];
    const linked = await runCli(link);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toMatch(/linked: binding agent-binding:sha256:[0-9a-f]{64} \(active\)/);
    const again = await runCli(link);
    expect(again.stdout).toBe(linked.stdout); // an exact re-link returns the existing binding

    const bob = (await runCli(['accounts', 'create', '--name', 'Bob', '--database', database])).stdout
      .trimEnd()
      .split('\n')
      .at(-1)!;
    const stolen = await runCli([
      'accounts',
      'link',
      '--account',
      bob,
      '--issuer',
      'https://login.example.com',
      '--tenant',
      'acme-tenant',
      '--subject',
      'subject-42',
      '--provider',
      'idp',
      '--database',
      database,
    ]);
    expect(stolen.code).toBe(2);
    expect(stolen.stderr).toContain('already linked to another account');

    const listed = await runCli(['accounts', 'list', '--database', database]);
    expect(listed.stdout).toMatch(new RegExp(`${accountId}\\tactive\\tAlice\\t1 active binding`));
    expect(listed.stdout).not.toContain('subject-42');
    expect(listed.stdout).not.toContain('acme-tenant');

    const weak = await runCli(['accounts', 'create', '--name', 'Carol', '--password-stdin', '--database', database]);
    expect(weak.code).toBe(2); // empty stdin: no password of 12+ characters

    const server = await startCliServer(database, { HELIX_LOG_LEVEL: 'warn' });
    try {
      const loginLinkUrl = async (): Promise<string> =>
        (
          await runCli([
            'accounts',
            'login-link',
            '--account',
            accountId,
            '--base-url',
            server.url,
            '--database',
            database,
          ])
        ).stdout.trim();
      const url = await loginLinkUrl();
      expect(url).toMatch(new RegExp(`^${server.url}/account/sign-in\\?code=[A-Za-z0-9_-]{43}$`));
      const signIn = await followSignInLink(server.url, new URL(url).searchParams.get('code')!);
      expect(signIn.status).toBe(303);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const page = await fetch(`${server.url}/account`, { headers: { cookie } });
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await page.text()).toContain('Agent bindings of Alice');
      const bindings = (await (
        await fetch(`${server.url}/api/account/session/agent-bindings`, { headers: { cookie } })
      ).json()) as { oauth_ready: boolean; bindings: unknown[] };
      expect(bindings.oauth_ready).toBe(true);
      expect(bindings.bindings).toHaveLength(1);
      const loginLink = async (): Promise<string> => new URL(await loginLinkUrl()).searchParams.get('code')!;
      const sessionStatus = async (session: string) =>
        (await fetch(`${server.url}/api/account/session/agent-bindings`, { headers: { cookie: session } })).status;
      // Signing in again rotates: the old cookie stops working.
      const second = await followSignInLink(server.url, await loginLink(), cookie);
      expect(second.status).toBe(303);
      expect(await sessionStatus(cookie)).toBe(401);
      const newCookie = second.headers.get('set-cookie')!.split(';')[0]!;
      expect(await sessionStatus(newCookie)).toBe(200);
      const unused = await loginLink();
      const disabled = await runCli(['accounts', 'disable', '--account', accountId, '--database', database]);
      expect(disabled.code).toBe(0);
      expect(await sessionStatus(newCookie)).toBe(401);
      // Issue 27 item 11: enable revives no session and no link issued before the disable.
      const enabled = await runCli(['accounts', 'enable', '--account', accountId, '--database', database]);
      expect([enabled.code, enabled.stdout]).toEqual([0, `enabled ${accountId}\n`]);
      expect(await sessionStatus(newCookie)).toBe(401);
      expect((await followSignInLink(server.url, unused)).status).toBe(400);
      const fresh = await followSignInLink(server.url, await loginLink());
      expect(fresh.status).toBe(303);
      expect(await sessionStatus(fresh.headers.get('set-cookie')!.split(';')[0]!)).toBe(200);
    } finally {
      await server.kill('SIGTERM');
    }
  }); // a dozen CLI processes in a row: on a loaded 2-core machine each takes seconds
});
