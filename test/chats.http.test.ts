import {
  IssuedObserverBindingSchema,
  ObserverBindingViewSchema,
  ObserverDisconnectReceiptSchema,
  ObserverEventPageSchema,
} from '../src/api/observerOutputSchemas.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatClaimReceiptSchema } from '../src/api/roomOutputSchemas.js';
import { loadConfig } from '../src/config.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import type { AccountDeps } from '../src/service/accounts/deps.js';
import { accountDeps } from './support/accounts.js';
import { consoleFetch, signInCookie } from './support/consoleSession.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const OBSERVER = '/api/agi/agent-run-observer/bindings';
const SCOPES = 'helix.agent_runs.read helix.agent_runs.write helix.rooms.read helix.rooms.manage';
const ACCOUNT_LIMIT = 12;

/** Form posts as the chat page sends them. */
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

// Issue 17 items 1 and 2 over real HTTP: the console's chats and the observer lane's guards.
describe('the console chats and observer lane over HTTP', () => {
  let h: TestHelix;
  let accounts: AccountDeps;
  let alice: { id: string; cookie: string };
  let bob: { id: string; cookie: string };
  const as = (cookie: string | undefined, method: string, path: string, body?: unknown, headers = {}) =>
    consoleFetch(h.url, cookie, method, path, body, headers);
  /** Creates a chat through the page form; answers its id from the redirect. */
  const newChat = async (cookie: string, title: string): Promise<string> => {
    const res = await as(cookie, 'POST', '/account/chats', form({ title }), FORM);
    expect(res.status, res.text).toBe(303);
    return res.headers.get('location')!.split('/').at(-1)!;
  };

  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, {
      env: {
        HELIX_ACCOUNT_DEFAULT_FEATURES: 'shared_live_room',
        HELIX_AGENT_RUN_OBSERVER_ACCOUNT_RATE_LIMIT: String(ACCOUNT_LIMIT),
      },
    });
    accounts = await accountDeps(h.testStore.store);
    const signedIn = async (name: string) => {
      const { accountId } = await createAccount(accounts, { displayName: name });
      return { id: accountId, cookie: await signInCookie(h.url, accounts, accountId) };
    };
    alice = await signedIn('Alice');
    bob = await signedIn('Bob');
  });
  afterAll(async () => h?.close());

  it('D-05, OBS-08: a guest (no session) is refused by the observer lane and gets the sign-in page for chats', async () => {
    const chatId = await newChat(alice.cookie, 'Mine');
    const issued = await as(undefined, 'POST', OBSERVER, { chat_session_id: chatId });
    expect([issued.status, issued.body.code]).toEqual([401, 'session_required']);
    const page = await as(undefined, 'GET', `/account/chats/${chatId}`);
    expect(page.status).toBe(401);
    expect(page.text).toContain('Sign in to Helix');
    expect(page.text).not.toContain('Mine');
  });

  it('OBS-18: a cross-origin POST with the session cookie is refused, for the lane and for the chat forms', async () => {
    const chatId = await newChat(alice.cookie, 'Target');
    const evil = { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' };
    for (const headers of [evil, { origin: 'http://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
      const issued = await as(alice.cookie, 'POST', OBSERVER, { chat_session_id: chatId }, headers);
      expect([issued.status, issued.body.code]).toEqual([403, 'forbidden_origin']);
      const posted = await as(alice.cookie, 'POST', `/account/chats/${chatId}/messages`, form({ content: 'x' }), {
        ...FORM,
        ...headers,
      });
      expect(posted.status).toBe(403);
    }
    // A fetch that names no Origin at all is not a same-origin page's mutation either.
    const bare = await fetch(`${h.url}${OBSERVER}`, {
      method: 'POST',
      headers: { cookie: alice.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ chat_session_id: chatId }),
    });
    expect(bare.status).toBe(403);
    expect(await h.testStore.store.read.chats.listMessages(chatId, 10)).toEqual([]);
    expect(await h.testStore.store.read.chats.listObserverBindings(chatId, 10)).toEqual([]);
  });

  it('PRE-03: script in chat titles and messages renders as text under the page policy (no inline script)', async () => {
    const chatId = await newChat(alice.cookie, '<script>alert(1)</script>');
    const posted = await as(
      alice.cookie,
      'POST',
      `/account/chats/${chatId}/messages`,
      form({ content: '<img src=x onerror=alert(2)>' }),
      FORM,
    );
    expect(posted.status).toBe(303);
    const page = await as(alice.cookie, 'GET', `/account/chats/${chatId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).not.toContain('<img src=x');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const list = await as(alice.cookie, 'GET', '/account/chats');
    expect(list.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('OBS-08: a page, form or observer claim for another profile’s chat is not found', async () => {
    const chatId = await newChat(alice.cookie, 'Private plans');
    const page = await as(bob.cookie, 'GET', `/account/chats/${chatId}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('The chat was not found.');
    expect(page.text).not.toContain('Private plans');
    const renamed = await as(bob.cookie, 'POST', `/account/chats/${chatId}/rename`, form({ title: 'Bob’s' }), FORM);
    expect(renamed.status).toBe(404);
    const deleted = await as(bob.cookie, 'POST', `/account/chats/${chatId}/delete`, form({}), FORM);
    expect(deleted.status).toBe(404);
    const issued = await as(bob.cookie, 'POST', OBSERVER, { chat_session_id: chatId });
    expect([issued.status, issued.body.code]).toEqual([404, 'not_found']);
    expect((await as(alice.cookie, 'GET', `/account/chats/${chatId}`)).text).toContain('Private plans');
  });

  it('RREST-06, OBS-06, OBS-12, WD-01: REST claims the handle once; GET shows the binding; DELETE takes no body or query and is idempotent', async () => {
    const chatId = await newChat(alice.cookie, 'Claimed over REST');
    const issued = await as(alice.cookie, 'POST', OBSERVER, {
      chat_session_id: chatId,
      context: { messages: [{ role: 'user', content: 'hello' }] },
    });
    expect(issued.status, issued.text).toBe(201);
    expect(issued.headers.get('cache-control')).toContain('no-store');
    // The answers match the OpenAPI document's schemas (src/api/observerOutputSchemas.ts).
    expect(IssuedObserverBindingSchema.parse(issued.body).binding_status).toBe('pending_claim');
    const token = await h.key(SCOPES, 'tenant-a', alice.id);
    const run = await api(h.url, 'POST', '/api/v1/agent-runs', {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'What does the chat ask?' },
    });
    expect(run.status, run.text).toBe(201);
    const claim = { claim_handle: issued.body.claim_handle, run_id: run.body.run_id };
    const claimed = await api(h.url, 'POST', '/api/v1/rooms/chat-bindings/claim', { token, body: claim });
    expect(claimed.status, claimed.text).toBe(201);
    expect(ChatClaimReceiptSchema.parse(claimed.body).snapshot_message_count).toBe(1);
    expect(claimed.text).not.toContain(chatId);
    const again = await api(h.url, 'POST', '/api/v1/rooms/chat-bindings/claim', { token, body: claim });
    expect([again.status, again.body.code]).toEqual([404, 'chat_claim_not_found']);

    const ref = issued.body.binding_ref;
    const view = await as(alice.cookie, 'GET', `${OBSERVER}/${ref}`);
    expect([view.status, ObserverBindingViewSchema.parse(view.body).binding_status]).toEqual([200, 'active']);
    const progress = await as(alice.cookie, 'GET', `${OBSERVER}/${ref}/events?after_seq=0&limit=100`);
    expect(ObserverEventPageSchema.parse(progress.body).events.length).toBeGreaterThan(0);
    expect(view.text).not.toContain(issued.body.claim_handle);
    expect(view.text).not.toContain(run.body.run_id);
    const withQuery = await as(alice.cookie, 'DELETE', `${OBSERVER}/${ref}?run_id=${run.body.run_id}`);
    expect([withQuery.status, withQuery.body.code]).toEqual([400, 'invalid_request']);
    const withBody = await as(alice.cookie, 'DELETE', `${OBSERVER}/${ref}`, { account_id: bob.id });
    expect([withBody.status, withBody.body.code]).toEqual([400, 'invalid_request']);
    expect((await as(bob.cookie, 'DELETE', `${OBSERVER}/${ref}`)).status).toBe(404);
    expect(
      ObserverDisconnectReceiptSchema.parse((await as(alice.cookie, 'DELETE', `${OBSERVER}/${ref}`)).body),
    ).toMatchObject({ revocation_status: 'revoked' });
    expect((await as(alice.cookie, 'DELETE', `${OBSERVER}/${ref}`)).body.revocation_status).toBe('already_revoked');
    const closed = await as(alice.cookie, 'GET', `${OBSERVER}/${ref}/events?after_seq=0&limit=100`);
    expect([closed.status, closed.body.code]).toEqual([409, 'observer_binding_closed']);
    const tooMany = await as(alice.cookie, 'GET', `${OBSERVER}/${ref}/events?limit=101`);
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 'invalid_request']);
  });

  it('OBS-15: HELIX_AGENT_RUN_OBSERVER_ACCOUNT_RATE_LIMIT bounds one account per minute, with Retry-After; another account is unaffected', async () => {
    const chatId = await newChat(bob.cookie, 'Busy');
    const ref = `aob_${'0'.repeat(32)}`;
    const answers: number[] = [];
    for (let i = 0; i < ACCOUNT_LIMIT + 1; i++)
      answers.push((await as(bob.cookie, 'GET', `${OBSERVER}/${ref}`)).status);
    expect(answers.at(-1)).toBe(429);
    expect(answers.filter((s) => s === 404).length).toBeGreaterThan(0);
    const limited = await as(bob.cookie, 'POST', OBSERVER, { chat_session_id: chatId });
    expect([limited.status, limited.body.code]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const carolId = (await createAccount(accounts, { displayName: 'Carol' })).accountId;
    const carol = await signInCookie(h.url, accounts, carolId);
    expect((await as(carol, 'GET', `${OBSERVER}/${ref}`)).status).toBe(404);
  });

  it('OBS-15, ENV-05: HELIX_AGENT_RUN_OBSERVER_IP_RATE_LIMIT counts the lane per address before the session, in its own bucket', async () => {
    const limited = await startTestHelix(storeFlavours()[0]!, {
      env: { HELIX_AGENT_RUN_OBSERVER_IP_RATE_LIMIT: '2' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await consoleFetch(limited.url, undefined, 'GET', `${OBSERVER}/aob_${'1'.repeat(32)}`)).status);
      expect(statuses).toEqual([401, 401, 429]);
      // The REST bucket of the same address is untouched.
      expect((await consoleFetch(limited.url, undefined, 'GET', '/api/v1/agent-runs/run_12345678')).status).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('OBS-15, ENV-05, ENV-06: the observer limits default to 600 per IP and 300 per account; 0 turns one off', () => {
    expect(loadConfig({}).rateLimits).toMatchObject({ observerPerIp: 600, observerPerAccount: 300 });
    const set = loadConfig({
      HELIX_AGENT_RUN_OBSERVER_IP_RATE_LIMIT: '0',
      HELIX_AGENT_RUN_OBSERVER_ACCOUNT_RATE_LIMIT: '9',
    }).rateLimits;
    expect([set.observerPerIp, set.observerPerAccount]).toEqual([0, 9]);
  });
});
