import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import type { AccountDeps } from '../src/service/accounts/deps.js';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { accountDeps } from './support/accounts.js';
import { signInCookie } from './support/consoleSession.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
const PASSWORD = 'correct horse battery staple';

// Issue 27 item 10, OBS-18: login and logout CSRF. A sign-in link or form opened from another site
// must not sign the victim's browser into the link's account, nor end the victim's own session.
describe('browser sign-in and sign-out are same-origin only (OBS-18)', () => {
  let h: TestHelix;
  let accounts: AccountDeps;
  let victim: string;
  let attacker: string;
  let sameOrigin: Record<string, string>;

  /** Whose session a cookie is, as the binding API sees it: 200 while it lives, 401 once ended. */
  const sessionStatus = async (cookie: string): Promise<number> =>
    (await fetch(`${h.url}/api/account/session/agent-bindings`, { headers: { cookie } })).status;
  const accountPageOf = async (cookie: string): Promise<string> =>
    (await fetch(`${h.url}/account`, { headers: { cookie } })).text();
  const post = (path: string, fields: Record<string, string>, headers: Record<string, string>) =>
    fetch(`${h.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...FORM, ...headers },
      body: new URLSearchParams(fields),
    });

  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!);
    accounts = await accountDeps(h.testStore.store);
    victim = (await createAccount(accounts, { displayName: 'Victim' })).accountId;
    attacker = (await createAccount(accounts, { displayName: 'Mallory <b>', password: PASSWORD })).accountId;
    sameOrigin = { origin: new URL(h.url).origin, 'sec-fetch-site': 'same-origin' };
  });
  afterAll(async () => h?.close());

  it("a sign-in link opened from another site only asks: no cookie is set, the code stays unused, the victim's session remains", async () => {
    const cookie = await signInCookie(h.url, accounts, victim);
    const code = await issueSignInLink(accounts, attacker);
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'none' }, {}]) {
      const opened = await fetch(`${h.url}/account/sign-in?code=${code}`, {
        redirect: 'manual',
        headers: { ...headers, cookie },
      });
      expect(opened.status).toBe(200);
      expect(opened.headers.get('set-cookie')).toBeNull();
      const page = await opened.text();
      // The page names whose account the link is for (escaped) and whose session it would end.
      expect(page).toContain('Sign in as Mallory &lt;b&gt;?');
      expect(page).toContain('This browser is signed in as Victim');
      expect(page).toMatch(/<form method="post" action="\/account\/sign-in">/);
      expect(page).not.toContain('<b>');
    }
    expect(await sessionStatus(cookie)).toBe(200);
    expect(await accountPageOf(cookie)).toContain('Agent bindings of Victim');
    // The code was not spent by the page: the same-origin confirmation still signs in with it.
    const confirmed = await post('/account/sign-in', { code }, { ...sameOrigin });
    expect(confirmed.status).toBe(303);
  });

  it("a cross-site (or Origin-less) sign-in post with a link's code is 403 and changes nothing", async () => {
    const cookie = await signInCookie(h.url, accounts, victim);
    const code = await issueSignInLink(accounts, attacker);
    for (const headers of [
      CROSS_SITE,
      { origin: 'https://evil.example' },
      { origin: sameOrigin.origin!, 'sec-fetch-site': 'same-site' },
      {},
    ]) {
      const forged = await post('/account/sign-in', { code }, { ...headers, cookie });
      expect(forged.status).toBe(403);
      expect(forged.headers.get('set-cookie')).toBeNull();
      expect(await forged.text()).toContain('The request origin is not allowed.');
    }
    expect(await sessionStatus(cookie)).toBe(200);
    expect(await accountPageOf(cookie)).toContain('Agent bindings of Victim');
    // Refused before the code was read: it still works once, from this origin.
    const own = await post('/account/sign-in', { code }, sameOrigin);
    expect(own.status).toBe(303);
    expect((await post('/account/sign-in', { code }, sameOrigin)).status).toBe(400);
  });

  it('a cross-site password sign-in post (login CSRF with the attacker’s password) is 403 and sets no cookie', async () => {
    const cookie = await signInCookie(h.url, accounts, victim);
    for (const headers of [CROSS_SITE, {}]) {
      const forged = await post('/account/sign-in', { account: attacker, password: PASSWORD }, { ...headers, cookie });
      expect(forged.status).toBe(403);
      expect(forged.headers.get('set-cookie')).toBeNull();
    }
    expect(await sessionStatus(cookie)).toBe(200);
    const own = await post('/account/sign-in', { account: attacker, password: PASSWORD }, sameOrigin);
    expect(own.status).toBe(303);
    expect(own.headers.get('set-cookie')).toMatch(/^helix_session=[A-Za-z0-9_-]{43};/);
  });

  it("a cross-site (or Origin-less) sign-out is 403 and the victim's session remains; GET does not sign out", async () => {
    const cookie = await signInCookie(h.url, accounts, victim);
    for (const headers of [CROSS_SITE, { origin: 'https://evil.example' }, {}]) {
      const forged = await post('/account/sign-out', {}, { ...headers, cookie });
      expect(forged.status).toBe(403);
      expect(forged.headers.get('set-cookie')).toBeNull();
    }
    const linked = await fetch(`${h.url}/account/sign-out`, { redirect: 'manual', headers: { cookie } });
    expect(linked.status).toBe(404);
    expect(await sessionStatus(cookie)).toBe(200);

    const own = await post('/account/sign-out', {}, { ...sameOrigin, cookie });
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toBe('/account');
    expect(own.headers.get('set-cookie')).toMatch(/^helix_session=;/);
    expect(await sessionStatus(cookie)).toBe(401);
  });

  it('the same-origin confirmation signs in, rotates the previous session and spends the code once', async () => {
    const previous = await signInCookie(h.url, accounts, victim);
    const code = await issueSignInLink(accounts, victim);
    const signedIn = await post('/account/sign-in', { code }, { ...sameOrigin, cookie: previous });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/account');
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toMatch(/^helix_session=[A-Za-z0-9_-]{43}$/);
    expect(await sessionStatus(cookie)).toBe(200);
    expect(await sessionStatus(previous)).toBe(401);
    const reopened = await fetch(`${h.url}/account/sign-in?code=${code}`, { redirect: 'manual' });
    expect(reopened.status).toBe(400);
    expect(await reopened.text()).toContain('This sign-in link is invalid, expired or already used.');
  });

  it('bad codes: malformed, unknown or missing are a 400 page on open and on confirm, and set no cookie', async () => {
    for (const code of ['', 'short', 'A'.repeat(43), `${'A'.repeat(42)}!`, 'A'.repeat(44)]) {
      const opened = await fetch(`${h.url}/account/sign-in?code=${encodeURIComponent(code)}`, { redirect: 'manual' });
      expect(opened.status).toBe(400);
      expect(opened.headers.get('set-cookie')).toBeNull();
      const confirmed = await post('/account/sign-in', { code }, sameOrigin);
      // An empty code is no code: the form is then a password sign-in without credentials.
      expect(confirmed.status).toBe(code === '' ? 401 : 400);
      expect(confirmed.headers.get('set-cookie')).toBeNull();
    }
    const bare = await fetch(`${h.url}/account/sign-in`, { redirect: 'manual' });
    expect(bare.status).toBe(400);
  });
});
