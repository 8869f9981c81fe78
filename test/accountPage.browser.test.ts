import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { accountDeps } from './support/accounts.js';
import { hasChromium, launchChromium } from './support/chromium.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

// .ci/run installs Debian's chromium; elsewhere the page is still covered over HTTP by test/oauth.test.ts.
describe.skipIf(!hasChromium())('the account page in a real browser', () => {
  let h: TestHelix;
  let browser: Browser;
  let accountId: string;
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
    browser = await launchChromium();
  }, ceilingFor(1));
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('signs in with a one-time link, lists the bindings, and revokes one with its button', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(
      `${h.url}/account/sign-in?code=${await issueSignInLink(await accountDeps(h.testStore.store), accountId)}`,
    );
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

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(async () => page.locator('h1').textContent()).toBe('Sign in to Helix');
    expect(errors).toEqual([]);
  });
});
