import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretHash } from '../src/accounts/secrets.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { issueApiKey } from '../src/service/accounts/issueApiKey.js';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { api, startTestHelix, type TestHelix } from './support/harness.js';
import { accountDeps } from './support/accounts.js';
import { hasChromium, launchChromium, signedInPage } from './support/chromium.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

// .ci/run installs Debian's chromium; elsewhere the page is still covered over HTTP by test/oauth.test.ts.
describe.skipIf(!hasChromium())('the account page in a real browser', () => {
  let h: TestHelix;
  let browser: Browser;
  let accountId: string;
  let apiKey: { key: string; keyId: string };
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!);
    const store = h.testStore.store;
    accountId = (await createAccount(await accountDeps(store), { displayName: 'Alice <script>' })).accountId;
    for (const subject of ['user-1', 'user-2']) {
      await linkIdentity(await accountDeps(store), accountId, {
        issuer: 'https://login.example.com',
        tenantId: 'acme',
        provider: 'idp',
        subject,
      });
    }
    const issued = await issueApiKey(await accountDeps(store), {
      tenantId: 'acme',
      accountId,
      scopes: ['helix.agent_runs.read'],
      label: 'laptop agent',
    });
    apiKey = { key: issued.key, keyId: issued.record.keyId };
    browser = await launchChromium();
  }, ceilingFor(1));
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('signs in with a one-time link and its confirmation button, lists the bindings, revokes one with its button, then revokes the account key', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(
      `${h.url}/account/sign-in?code=${await issueSignInLink(await accountDeps(h.testStore.store), accountId)}`,
    );
    // OBS-18: opening the link only asks; the same-origin button post signs in.
    expect(await page.locator('h1').textContent()).toBe('Sign in as Alice <script>?');
    expect(await page.context().cookies()).toEqual([]);
    await page.getByRole('button', { name: 'Sign in as Alice <script>' }).click();
    await expect.poll(() => page.url()).toBe(`${h.url}/account`);
    await expect.poll(async () => page.locator('#bindings tr').count()).toBe(2);
    expect(await page.locator('h1').textContent()).toBe('Agent bindings of Alice <script>');
    expect(await page.locator('#status').textContent()).toBe('At least one binding is active.');
    await page.screenshot({ path: 'test-results/account-page.png' }).catch(() => undefined);

    await page.locator('#bindings tr').first().getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(async () => page.locator('#bindings tr', { hasText: 'revoked' }).count()).toBe(1);
    const active = (await h.testStore.store.read.bindings.listForAccount(accountId)).filter(
      (b) => b.status === 'active',
    );
    expect(active).toHaveLength(1);

    // Issue 27 item 7: the account's key is revoked from the same page, by its own form post.
    const keyStatus = async () => (await api(h.url, 'GET', '/api/v1/agent-runs', { token: apiKey.key })).status;
    expect(await keyStatus()).toBe(200);
    const keyRow = page.locator('#keys tr', { hasText: apiKey.keyId });
    expect(await keyRow.textContent()).toContain('laptop agent');
    expect(await page.content()).not.toContain(apiKey.key);
    await keyRow.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(async () => keyRow.textContent()).toMatch(/revoked \d{4}-/);
    expect(page.url()).toBe(`${h.url}/account`);
    expect(await keyRow.getByRole('button').count()).toBe(0);
    expect(await keyStatus()).toBe(401);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(async () => page.locator('h1').textContent()).toBe('Sign in to Helix');
    expect(errors).toEqual([]);
  });

  // Issue 27 item 10 (OBS-18): another origin's page (here another port on the same host: same-site,
  // so the SameSite=Lax cookie is sent along) cannot sign the victim into its account or out of theirs.
  it("another origin's auto-submitted sign-in and sign-out forms, and its link, leave the victim signed in as themselves", async () => {
    const deps = await accountDeps(h.testStore.store);
    const mallory = (await createAccount(deps, { displayName: 'Mallory' })).accountId;
    const code = await issueSignInLink(deps, mallory);
    const forms: Record<string, string> = {
      '/sign-in': `<form method="post" action="${h.url}/account/sign-in"><input name="code" value="${code}"></form>`,
      '/sign-out': `<form method="post" action="${h.url}/account/sign-out"></form>`,
      '/link': `<a href="${h.url}/account/sign-in?code=${code}">win a prize</a>`,
    };
    const evil: Server = createServer((request, response) => {
      const body = forms[request.url ?? ''] ?? '';
      const autorun = request.url === '/link' ? 'document.links[0].click()' : 'document.forms[0].submit()';
      response.writeHead(200, { 'content-type': 'text/html' }).end(`${body}<script>${autorun}</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
    const errors: string[] = [];
    const page = await signedInPage(browser, h.url, await issueSignInLink(deps, accountId), errors);
    const victimCookie = (await page.context().cookies()).find((c) => c.name === 'helix_session')?.value;
    try {
      for (const attack of ['/sign-in', '/sign-out']) {
        const refused = page.waitForResponse((r) => r.url().startsWith(`${h.url}/account/sign-`));
        await page.goto(`${evilUrl}${attack}`);
        expect((await refused).status()).toBe(403);
        await expect.poll(async () => page.locator('h1').textContent()).toBe('Nothing changed');
      }
      await page.goto(`${evilUrl}/link`);
      await expect.poll(async () => page.locator('h1').textContent()).toBe('Sign in as Mallory?');
      expect(await page.locator('p.error').textContent()).toContain('This browser is signed in as Alice <script>');

      expect((await page.context().cookies()).find((c) => c.name === 'helix_session')?.value).toBe(victimCookie);
      await page.goto(`${h.url}/account`);
      expect(await page.locator('h1').textContent()).toBe('Agent bindings of Alice <script>');
      // Nothing spent Mallory's code: it is still unused.
      expect(await h.testStore.store.read.sessions.findOneTime(secretHash(code), 'sign_in', Date.now())).toBe(mallory);
    } finally {
      await page.context().close();
      await new Promise((resolve) => evil.close(resolve));
    }
  });
});
