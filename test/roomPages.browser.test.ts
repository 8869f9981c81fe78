import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { accountDeps } from './support/accounts.js';
import { hasChromium, launchChromium, signedInPage } from './support/chromium.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

// .ci/run installs Debian's chromium; elsewhere the pages are still covered over HTTP by test/roomPages.test.ts.
describe.skipIf(!hasChromium())('the console room pages in a real browser (D-09, PRE-01)', () => {
  let h: TestHelix;
  let browser: Browser;
  let owner: string;
  let guest: string;
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, {
      env: { HELIX_ACCOUNT_DEFAULT_FEATURES: 'model_providers,shared_live_room' },
    });
    const deps = await accountDeps(h.testStore.store);
    owner = (await createAccount(deps, { displayName: 'Olive' })).accountId;
    guest = (await createAccount(deps, { displayName: 'Gus' })).accountId;
    await linkIdentity(deps, owner, {
      issuer: 'https://login.example.com',
      tenantId: 'acme',
      provider: 'idp',
      subject: 'olive',
    });
    browser = await launchChromium();
  }, ceilingFor(1));
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const signedIn = async (accountId: string, errors: string[]): Promise<Page> =>
    signedInPage(browser, h.url, await issueSignInLink(await accountDeps(h.testStore.store), accountId), errors);

  it('D-09, PRE-01: the owner creates a room and invites; the invitee joins and accepts the consent; the owner changes its role', async () => {
    const errors: string[] = [];
    const ownerPage = await signedIn(owner, errors);
    await ownerPage.getByRole('link', { name: 'Shared Live Rooms' }).click();
    await ownerPage.getByLabel('Title').fill('Launch <plan>');
    await ownerPage.getByRole('button', { name: 'Create room' }).click();
    await expect.poll(async () => ownerPage.locator('h1').textContent()).toBe('Launch <plan>');
    const roomUrl = ownerPage.url();
    const roomId = roomUrl.split('/').at(-1)!;
    expect(roomId).toMatch(/^room_[0-9a-f]{24}$/);

    await ownerPage.getByRole('button', { name: 'Create invite link' }).click();
    const link = (await ownerPage.locator('#invite-link').textContent())!;
    expect(link).toMatch(new RegExp(`^${h.url}/account/rooms/invite#hlxinv_[A-Za-z0-9_-]{43}$`));

    const guestPage = await signedIn(guest, errors);
    await guestPage.goto(link);
    // The page script moved the fragment's token into the form and out of the address bar.
    await expect.poll(() => guestPage.url()).toBe(`${h.url}/account/rooms/invite`);
    expect(await guestPage.getByLabel('Invite token').inputValue()).toBe(link.split('#')[1]);
    await guestPage.getByRole('button', { name: 'Join the room' }).click();
    await expect.poll(() => guestPage.url()).toBe(roomUrl);
    expect(await guestPage.locator('#consent-text').textContent()).toContain('Members of this room can see the runs');
    await guestPage.getByRole('button', { name: 'Accept consent v1' }).click();
    await expect.poll(async () => guestPage.locator('#consent-status').textContent()).toBe('You accepted consent v1.');

    await ownerPage.goto(roomUrl);
    const row = ownerPage.locator(`#members tr[data-account="${guest}"]`);
    expect(await row.locator('.role').textContent()).toBe('member');
    await row.getByLabel(`Role of ${guest}`).selectOption('observer');
    await row.getByRole('button', { name: 'Set role' }).click();
    await expect
      .poll(async () => ownerPage.locator(`#members tr[data-account="${guest}"] .role`).textContent())
      .toBe('observer');

    for (const page of [ownerPage, guestPage]) {
      await page.goto(`${h.url}/account/rooms`);
      expect(await page.locator('#rooms a').allTextContents()).toEqual(['Launch <plan>']);
    }
    await ownerPage.screenshot({ path: 'test-results/room-page.png' }).catch(() => undefined);
    const rooms = h.testStore.store.read.rooms;
    expect(await rooms.getMember(roomId, guest)).toMatchObject({ role: 'observer', acceptedConsentVersion: 1 });
    expect((await rooms.getMember(roomId, guest))?.consentReceiptRef).toMatch(/^rcr_[0-9a-f]{32}$/);
    expect(await rooms.getRoom(roomId)).toMatchObject({ title: 'Launch <plan>', ownerAccountId: owner });
    expect(errors).toEqual([]);
  });
});
