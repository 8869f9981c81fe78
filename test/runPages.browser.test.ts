import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { accountDeps } from './support/accounts.js';
import { hasChromium, launchChromium, screenshotPath, signedInPage } from './support/chromium.js';
import { ASKING, QUESTION, QUOTED, startConsoleRuns, type ConsoleRuns } from './support/consoleRuns.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const SCRIPTED_OBJECTIVE = 'Explain <script>self["pwned"]=true</script> the flux capacitor';

// .ci/run installs Debian's chromium; elsewhere the pages are still covered over HTTP by test/runPages.test.ts.
describe.skipIf(!hasChromium())('the console run pages in a real browser (issue 17)', () => {
  let c: ConsoleRuns;
  let browser: Browser;
  const runs: Record<string, string> = {};
  beforeAll(async () => {
    c = await startConsoleRuns(storeFlavours()[0]!);
    runs.scripted = await c.start(c.ownerKey, SCRIPTED_OBJECTIVE);
    await c.turn(c.ownerKey, runs.scripted);
    runs.weather = await c.start(c.ownerKey, 'Summarise the weather reports of March');
    runs.asking = await c.start(c.ownerKey, ASKING);
    await c.turn(c.ownerKey, runs.asking);
    runs.theirs = await c.start(c.otherKey, 'Their flux capacitor run');
    browser = await launchChromium();
  }, ceilingFor(1));
  afterAll(async () => {
    await browser?.close();
    await c?.h.close();
  });

  const rowsOf = (page: Page) =>
    page.locator('#runs tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));

  it('lists and searches the runs, shows a run with its quotes marked and its answer, and follows a run live while it is answered', async () => {
    const errors: string[] = [];
    const page = await signedInPage(
      browser,
      c.h.url,
      await issueSignInLink(await accountDeps(c.h.testStore.store), c.owner),
      errors,
    );
    await page.getByRole('link', { name: 'Runs' }).click();
    await expect.poll(() => rowsOf(page)).toEqual([runs.asking, runs.weather, runs.scripted]);
    await page.screenshot({ path: screenshotPath('runs.png'), fullPage: true });

    await page.getByLabel('Objective contains').fill('FLUX');
    await page.getByLabel('Status').selectOption('completed');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => rowsOf(page)).toEqual([runs.scripted]);

    await page.getByRole('link', { name: SCRIPTED_OBJECTIVE }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe(SCRIPTED_OBJECTIVE);
    expect(await page.locator('#evidence mark').allTextContents()).toEqual([QUOTED]);
    expect(await page.locator('#answer').textContent()).toBe(`${QUOTED} [1]`);
    await page.locator('#citations a').click();
    await expect.poll(() => page.url()).toBe(`${c.h.url}/account/runs/${runs.scripted}#artifact-1`);
    expect(await page.locator('#lifecycle').textContent()).toBe('completed');
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    await page.screenshot({ path: screenshotPath('run.png'), fullPage: true });

    // One tab follows the asking run; a second tab answers its question.
    await page.goto(`${c.h.url}/account/runs/${runs.asking}`);
    const shown = await page.locator('#timeline li').count();
    expect(await page.locator('#lifecycle').textContent()).toBe('waiting');
    const answering = await page.context().newPage();
    await answering.goto(`${c.h.url}/account/runs/${runs.asking}`);
    await answering.getByLabel(QUESTION.prompt).fill('the 1950s');
    await answering.getByRole('button', { name: 'Answer' }).click();
    await expect.poll(() => answering.locator('#lifecycle').textContent()).toBe('completed');

    await expect.poll(() => page.locator('#timeline li strong').allTextContents()).toContain('run.completed');
    expect(await page.locator('#timeline li').count()).toBeGreaterThan(shown);
    expect(await page.locator('#live').textContent()).toContain('The run changed');
    // Nothing was pushed twice: every seq appears once.
    const seqs = await page
      .locator('#timeline li')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-seq')));
    expect(new Set(seqs).size).toBe(seqs.length);

    await page.goto(`${c.h.url}/account/runs/${runs.theirs}`);
    expect(await page.locator('#error').textContent()).toContain('not found');
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  });
});
