import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium, which .ci/run installs; browser tests skip when it is absent. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = (): boolean => existsSync(CHROMIUM);

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: FLAGS });

/**
 * A fresh browser context (its own cookie jar) signed in with a one-time sign-in code: opening the
 * link shows the confirmation, whose button signs in. Page errors and console errors (a CSP
 * refusal among them) are collected in `errors`.
 */
export const signedInPage = async (
  browser: Browser,
  baseUrl: string,
  signInCode: string,
  errors: string[],
): Promise<Page> => {
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${baseUrl}/account/sign-in?code=${signInCode}`);
  await page.getByRole('button', { name: /^Sign in as / }).click();
  await page.waitForURL(`${baseUrl}/account`);
  return page;
};

/**
 * Where a browser test saves the screenshot `name` (e.g. `run.png`): docs/console/ when
 * `HELIX_DOCS_SCREENSHOTS=1` (refreshing the images docs/console.md shows), else the ignored
 * test-results/, so an ordinary run leaves the committed images alone (fonts differ by machine).
 */
export const screenshotPath = (name: string): string =>
  fileURLToPath(
    new URL(
      process.env.HELIX_DOCS_SCREENSHOTS === '1' ? `../../docs/console/${name}` : `../../test-results/${name}`,
      import.meta.url,
    ),
  );
