import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import type { AccountDeps } from '../src/service/accounts/deps.js';
import { issueApiKey } from '../src/service/accounts/issueApiKey.js';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { accountDeps } from './support/accounts.js';
import { consoleFetch } from './support/consoleSession.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { runCli } from './support/processes.js';
import { PRODUCTION_ENV, VIA_HTTPS_PROXY } from './support/productionEnv.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const RUNS = '/api/v1/agent-runs';
const BINDINGS = '/api/account/session/agent-bindings';
// A partner origin the deployment admits (HELIX_AGENT_ALLOWED_ORIGINS), yet not this server's own.
const PARTNER = 'https://partner.example';
const PRODUCTION = {
  ...PRODUCTION_ENV,
  TRUST_PROXY: '127.0.0.1',
  HELIX_AGENT_ALLOWED_ORIGINS: `${PRODUCTION_ENV.HELIX_PUBLIC_BASE_URL},${PARTNER}`,
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
};
/** What the console page's own requests carry in production, behind the trusted TLS proxy. */
const OWN_PAGE = { ...VIA_HTTPS_PROXY, origin: PRODUCTION_ENV.HELIX_PUBLIC_BASE_URL, 'sec-fetch-site': 'same-origin' };
const SAME_ORIGIN = { ...OWN_PAGE, 'content-type': 'application/x-www-form-urlencoded' };

const revokePath = (keyId: string) => `/account/keys/${keyId}/revoke`;

// Issue 27 item 7: in production an `hlx_` key is bound to its Helix account. A binding revoked in
// the browser stops that agent's OAuth tokens only; the account holder stops a key from the same
// page, with the key's own Revoke form, and the key's next request is refused (docs/auth.md).
describe.each(storeFlavours())('the account holder revokes the account’s hlx_ keys on /account ($name)', (flavour) => {
  let h: TestHelix;
  let accounts: AccountDeps;

  /** Signs in over HTTP as the confirmation page's button does, in production (HTTPS, own origin). */
  const signIn = async (accountId: string): Promise<string> => {
    const code = await issueSignInLink(accounts, accountId);
    const res = await fetch(`${h.url}/account/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: SAME_ORIGIN,
      body: new URLSearchParams({ code }),
    });
    expect(res.status).toBe(303);
    return res.headers.get('set-cookie')!.split(';')[0]!;
  };
  const keyReply = (key: string) => api(h.url, 'GET', RUNS, { token: key, headers: VIA_HTTPS_PROXY });
  const accountPage = async (cookie: string) =>
    (await consoleFetch(h.url, cookie, 'GET', '/account', undefined, OWN_PAGE)).text;
  const postRevoke = (cookie: string | undefined, keyId: string, headers: Record<string, string> = {}) =>
    consoleFetch(h.url, cookie, 'POST', revokePath(keyId), '', { ...SAME_ORIGIN, ...headers });
  /** An account with one agent binding and one key; `calls` admitted requests put the key in the cache. */
  const holderWithKey = async (name: string) => {
    const { accountId } = await createAccount(accounts, { displayName: name });
    await linkIdentity(accounts, accountId, {
      issuer: 'https://login.example.com',
      tenantId: 'acme',
      provider: 'test',
      subject: `${name}-subject`,
    });
    const { key, record } = await issueApiKey(accounts, {
      tenantId: 'acme',
      accountId,
      scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'],
      label: `${name}'s agent`,
    });
    return { accountId, key, keyId: record.keyId, keyHash: record.keyHash, cookie: await signIn(accountId) };
  };

  beforeAll(async () => {
    h = await startTestHelix(flavour, { env: PRODUCTION });
    accounts = await accountDeps(h.testStore.store);
  }, ceilingFor(1));
  afterAll(async () => h?.close());

  it('lists the key (never the key or its hash); a binding revoke leaves it admitted; its Revoke key form stops it on the next request', async () => {
    const alice = await holderWithKey('alice');
    // Admitted twice: the second answer comes from the verified-key cache the revoke must drop.
    expect((await keyReply(alice.key)).status).toBe(200);
    expect((await keyReply(alice.key)).status).toBe(200);

    const page = await accountPage(alice.cookie);
    expect(page).toContain(`<code>${alice.keyId}</code>`);
    expect(page).toContain('alice&#39;s agent');
    expect(page).toContain('helix.agent_runs.read helix.agent_runs.write');
    expect(page).toContain(`action="${revokePath(alice.keyId)}"`);
    expect(page).toContain("It does not stop this account's API keys");
    expect(page).not.toContain(alice.key);
    expect(page).not.toContain(alice.keyHash);

    // Revoking the agent binding is what the attack pass tried: it stops OAuth tokens, not the key.
    const bindingRef = (await consoleFetch(h.url, alice.cookie, 'GET', BINDINGS, undefined, OWN_PAGE)).body.bindings[0]
      .binding_ref as string;
    const revokedBinding = await consoleFetch(
      h.url,
      alice.cookie,
      'DELETE',
      `${BINDINGS}/${bindingRef}`,
      undefined,
      OWN_PAGE,
    );
    expect(revokedBinding.status, revokedBinding.text).toBe(200);
    expect((await keyReply(alice.key)).status).toBe(200);

    const revoked = await postRevoke(alice.cookie, alice.keyId);
    expect(revoked.status, revoked.text).toBe(303);
    expect(revoked.headers.get('location')).toBe('/account');
    const refused = await keyReply(alice.key);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('invalid_token');
    const row = (await h.testStore.store.read.apiKeys.listForAccount(alice.accountId))[0]!;
    expect(row.revokedAt).not.toBeNull();

    const after = await accountPage(alice.cookie);
    expect(after).toContain(`revoked ${new Date(row.revokedAt!).toISOString()}`);
    expect(after).not.toContain(`action="${revokePath(alice.keyId)}"`);
    // Again: harmless, the first revocation time is kept.
    expect((await postRevoke(alice.cookie, alice.keyId)).status).toBe(303);
    expect((await h.testStore.store.read.apiKeys.listForAccount(alice.accountId))[0]!.revokedAt).toBe(row.revokedAt);
  });

  it("another account's key is not found, exactly like an unknown or malformed id, and stays admitted", async () => {
    const alice = await holderWithKey('alice2');
    const mallory = await holderWithKey('mallory');
    expect((await keyReply(alice.key)).status).toBe(200);
    for (const keyId of [alice.keyId, 'key_0000000000000000', 'not-a-key']) {
      const refused = await postRevoke(mallory.cookie, keyId);
      expect(refused.status, keyId).toBe(404);
      expect(refused.text).toContain('The key was not found.');
      expect(refused.text).toContain('Nothing changed');
    }
    expect((await keyReply(alice.key)).status).toBe(200);
    expect((await keyReply(mallory.key)).status).toBe(200);
    expect(await accountPage(mallory.cookie)).not.toContain(alice.keyId);
  });

  it('refuses a post from another origin or site, and one without a session, and the key stays admitted', async () => {
    const alice = await holderWithKey('alice3');
    const attempts: [Record<string, string>, string | undefined, number][] = [
      [{ origin: PARTNER }, alice.cookie, 403], // admitted by the host policy, but not this server's own
      [{ 'sec-fetch-site': 'cross-site' }, alice.cookie, 403],
      [{ 'sec-fetch-site': 'same-site' }, alice.cookie, 403],
      [{ origin: 'https://evil.example' }, alice.cookie, 403], // refused by the host policy first
      [{}, undefined, 401],
    ];
    for (const [headers, cookie, status] of attempts) {
      const refused = await postRevoke(cookie, alice.keyId, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(status);
    }
    // A form post without any Origin is refused too (src/http/account/sameOrigin.ts).
    const noOrigin = await fetch(`${h.url}${revokePath(alice.keyId)}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...VIA_HTTPS_PROXY, cookie: alice.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(noOrigin.status).toBe(403);
    expect((await keyReply(alice.key)).status).toBe(200);
    expect((await h.testStore.store.read.apiKeys.listForAccount(alice.accountId))[0]!.revokedAt).toBeNull();
  });
});

// docs/production.md "Subject access" (issue 27 item 7): its key recipe, run as written against a
// production server; the recipe it replaced (`--account operator`) is refused there.
describe('the subject-access key recipe of docs/production.md in production', () => {
  let h: TestHelix;
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, { env: PRODUCTION });
  }, ceilingFor(1));
  afterAll(async () => h?.close());

  it('a key for `--account operator` is refused; one for the account `helix accounts create` printed is admitted', {
    timeout: ceilingFor(4),
  }, async () => {
    const database = h.testStore.location!;
    const scopes = 'subject.read subject.export subject.erase';
    const keyFor = async (account: string) => {
      const created = await runCli([
        'keys',
        'create',
        '--tenant',
        'ops',
        '--account',
        account,
        '--scopes',
        scopes,
        '--label',
        'subject-access',
        '--database',
        database,
      ]);
      expect(created.code, created.stderr).toBe(0);
      return created.stdout.trimEnd().split('\n').at(-1)!;
    };
    // A subject with something held: a person's account that started a run.
    const { accountId: alice } = await createAccount(await accountDeps(h.testStore.store), { displayName: 'Alice' });
    const aliceKey = await h.key('helix.agent_runs.read helix.agent_runs.write', 'acme', alice);
    const run = await api(h.url, 'POST', RUNS, {
      token: aliceKey,
      idempotencyKey: idemKey(),
      body: { objective: 'x' },
      headers: VIA_HTTPS_PROXY,
    });
    expect(run.status, run.text).toBe(201);
    const subject = (key: string) =>
      api(h.url, 'GET', `/api/v1/subjects/${alice}`, { token: key, headers: VIA_HTTPS_PROXY });

    // What the recipe said before: `operator` is no Helix account, so production refuses the key.
    const operatorKey = await keyFor('operator');
    const refused = await subject(operatorKey);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('account_not_linked');

    const created = await runCli(['accounts', 'create', '--name', 'Subject access operator', '--database', database]);
    expect(created.code, created.stderr).toBe(0);
    const operatorAccount = created.stdout.trimEnd().split('\n').at(-1)!;
    expect(operatorAccount).toMatch(/^acct_[0-9a-f]{24}$/);
    const admitted = await subject(await keyFor(operatorAccount));
    expect(admitted.status, admitted.text).toBe(200);
    expect(admitted.body.account_id).toBe(alice);
  });
});
