import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import type { AccountDeps } from '../src/service/accounts/deps.js';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { setAccountStatus } from '../src/service/accounts/setAccountStatus.js';
import { accountDeps } from './support/accounts.js';
import { consoleFetch, followSignInLink, signInCookie } from './support/consoleSession.js';
import { ALL_RUN_SCOPES, api, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const BINDINGS = '/api/account/session/agent-bindings';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

// Issue 27 item 11: `helix accounts disable` ends the account's browser sessions for good, with
// every bearer a session handed out or could still be started from (an unused sign-in link, a
// pending chat claim handle); `enable` revives none of them. Keys and agent bindings are only
// suspended (docs/auth.md): they are the operator's and the account's standing credentials.
describe.each(storeFlavours())('disabling an account ($name)', (flavour) => {
  let h: TestHelix;
  let accounts: AccountDeps;
  let other: { accountId: string; cookie: string };

  const sessionStatus = async (cookie: string): Promise<number> =>
    (await consoleFetch(h.url, cookie, 'GET', BINDINGS)).status;
  const keyStatus = async (key: string): Promise<number> =>
    (await api(h.url, 'GET', '/api/v1/agent-runs', { token: key })).status;
  /** A chat and a pending claim handle for it, issued from the session as the chat page does. */
  const pendingClaim = async (cookie: string): Promise<string> => {
    const chat = await consoleFetch(h.url, cookie, 'POST', '/account/chats', 'title=Notes', FORM);
    expect(chat.status, chat.text).toBe(303);
    const chatId = chat.headers.get('location')!.split('/').at(-1)!;
    const issued = await consoleFetch(h.url, cookie, 'POST', '/api/agi/agent-run-observer/bindings', {
      chat_session_id: chatId,
    });
    expect(issued.status, issued.text).toBe(201);
    return issued.body.binding_ref as string;
  };

  beforeAll(async () => {
    h = await startTestHelix(flavour, { env: { HELIX_ACCOUNT_DEFAULT_FEATURES: 'shared_live_room' } });
    accounts = await accountDeps(h.testStore.store);
    const { accountId } = await createAccount(accounts, { displayName: 'Bystander' });
    other = { accountId, cookie: await signInCookie(h.url, accounts, accountId) };
  });
  afterAll(async () => h?.close());

  it('disable → enable: the old cookie, an unused sign-in link and a pending chat claim stay dead; a new sign-in works', async () => {
    const { accountId } = await createAccount(accounts, { displayName: 'Alice' });
    const binding = await linkIdentity(accounts, accountId, {
      issuer: 'https://login.example.com',
      tenantId: 'acme',
      provider: 'idp',
      subject: 'alice',
    });
    const key = await h.key(ALL_RUN_SCOPES, 'acme', accountId);
    const cookie = await signInCookie(h.url, accounts, accountId);
    const spare = await signInCookie(h.url, accounts, accountId); // a second browser
    const unusedLink = await issueSignInLink(accounts, accountId);
    const claimRef = await pendingClaim(cookie);
    expect([await sessionStatus(cookie), await sessionStatus(spare), await keyStatus(key)]).toEqual([200, 200, 200]);

    await setAccountStatus(accounts, accountId, 'disabled');
    expect([await sessionStatus(cookie), await sessionStatus(spare), await keyStatus(key)]).toEqual([401, 401, 403]);

    await setAccountStatus(accounts, accountId, 'active');
    // Sessions were revoked, not suspended: neither browser is signed in again.
    expect(await sessionStatus(cookie)).toBe(401);
    expect(await sessionStatus(spare)).toBe(401);
    expect(await (await fetch(`${h.url}/account`, { headers: { cookie } })).text()).toContain('Sign in to Helix');
    // The link issued before the disable was spent by it.
    const stale = await fetch(`${h.url}/account/sign-in?code=${unusedLink}`);
    expect(stale.status).toBe(400);
    expect((await followSignInLink(h.url, unusedLink)).status).toBe(400);
    // The chat claim handle the old session issued is revoked; nobody can claim it any more.
    const observer = await h.testStore.store.read.chats.getObserverBinding(claimRef, accountId);
    expect(observer?.status).toBe('revoked');
    // What is only suspended comes back: the hlx_ key and the agent binding.
    expect(await keyStatus(key)).toBe(200);
    expect((await h.testStore.store.read.bindings.findActive(binding))?.status).toBe('active');

    const fresh = await signInCookie(h.url, accounts, accountId);
    expect(await sessionStatus(fresh)).toBe(200);
    expect(await sessionStatus(cookie)).toBe(401);
    // Another account's session is untouched throughout.
    expect(await sessionStatus(other.cookie)).toBe(200);
  });

  it('disabling twice is harmless, and an unknown account is refused without touching anyone', async () => {
    const { accountId } = await createAccount(accounts, { displayName: 'Bob' });
    const cookie = await signInCookie(h.url, accounts, accountId);
    await setAccountStatus(accounts, accountId, 'disabled');
    await setAccountStatus(accounts, accountId, 'disabled');
    await setAccountStatus(accounts, accountId, 'active');
    expect(await sessionStatus(cookie)).toBe(401);
    await expect(setAccountStatus(accounts, 'acct_000000000000000000000000', 'disabled')).rejects.toThrow(
      'acct_000000000000000000000000',
    );
    expect(await sessionStatus(other.cookie)).toBe(200);
  });
});
