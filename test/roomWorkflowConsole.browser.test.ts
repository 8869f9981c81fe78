// Issue 16 item 3, MC-12 and M-03 in a real browser: a signed-in room owner sees a member's player
// walking on the room page, presses Emergency stop, and the page reads "stopped" only once the
// (scripted) connector reports the player stationary. The HTTP-level cases are
// test/roomWorkflowConsole.test.ts.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { accountDeps } from './support/accounts.js';
import { hasChromium, launchChromium, signedInPage } from './support/chromium.js';
import { embodimentWorld } from './support/embodimentWorld.js';
import { manualClock, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';
import { EMBODIMENT_ENV } from './support/embodimentServer.js';
import { ceilingFor } from './support/ceilings.js';

const ENV = EMBODIMENT_ENV;

// .ci/run installs Debian's chromium; elsewhere the page is covered over HTTP by test/roomWorkflowConsole.test.ts.
describe.skipIf(!hasChromium())('the console manual override in a real browser (MC-12, M-03)', () => {
  const clock = manualClock();
  let h: TestHelix;
  let browser: Browser;
  const clients: Client[] = [];
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, { env: ENV, clock });
    browser = await launchChromium();
  }, ceilingFor(1));
  afterAll(async () => {
    for (const c of clients) await c.close();
    await browser?.close();
    await h?.close();
  });

  it('the owner stops a member’s walking player from the room page; it reads stopped only when stationary', async () => {
    const w = await embodimentWorld(h, clock.now, clients);
    const bob = await w.member('bob');
    expect((await w.select(bob.call)).isError).toBeFalsy();
    const ref = (await w.act({ kind: 'walk', direction: 'forward', ticks: 100 }, {}, bob.call)).structuredContent
      .workflow_ref as string;
    await w.connector.poll();

    const errors: string[] = [];
    const code = await issueSignInLink(await accountDeps(h.testStore.store), w.owner.accountId);
    const page = await signedInPage(browser, h.url, code, errors);
    await page.goto(`${h.url}/account/rooms/${w.source.roomId}`);
    const row = page.locator(`#workflows tr[data-workflow="${ref}"]`);
    expect(await row.locator('.status').textContent()).toBe('running');
    await page.getByRole('button', { name: `Emergency stop ${ref}` }).click();
    await page.waitForURL(`${h.url}/account/rooms/${w.source.roomId}`);
    expect(await row.locator('.status').textContent()).toBe('stopping');
    expect(await row.textContent()).toContain('stop sent, waiting for the player to stand still');

    const [control] = (await w.connector.poll()).controls;
    expect(control).toMatchObject({ workflow_ref: ref, control: 'emergency_stop' });
    expect((await w.connector.controlResult(control, 'stopped', 0)).status).toBe(200);
    await page.reload();
    expect(await page.locator('#no-workflows').textContent()).toBe('No player is acting in this room now.');
    expect((await w.status(ref, bob.call)).structuredContent.status).toBe('stopped');
    expect(errors).toEqual([]);
  });
});
