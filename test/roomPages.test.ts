import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/domain/hashing.js';
import { createLogger } from '../src/logger.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { accountDeps } from './support/accounts.js';
import { consoleForm, signInCookie } from './support/consoleSession.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const FEATURES = { HELIX_ACCOUNT_DEFAULT_FEATURES: 'model_providers,shared_live_room' };

describe('the console room pages over HTTP (D-09, PRE-01)', () => {
  let h: TestHelix;
  let origin: string;
  const logLines: string[] = [];
  const cookies: Record<string, string> = {};
  const ids: Record<string, string> = {};

  const signIn = async (name: string, linked: boolean): Promise<void> => {
    const deps = await accountDeps(h.testStore.store);
    const { accountId } = await createAccount(deps, { displayName: name });
    if (linked)
      await linkIdentity(deps, accountId, {
        issuer: 'https://login.example.com',
        tenantId: 'acme',
        provider: 'idp',
        subject: name,
      });
    ids[name] = accountId;
    cookies[name] = await signInCookie(h.url, deps, accountId);
  };
  /** A browser form post: same-origin Origin and Sec-Fetch-Site unless the test overrides them. */
  const post = (
    path: string,
    who: string | undefined,
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${h.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin,
        'sec-fetch-site': 'same-origin',
        ...(who === undefined ? {} : { cookie: cookies[who]! }),
        ...headers,
      },
      body: new URLSearchParams(form),
    });
  const get = (path: string, who?: string) =>
    fetch(`${h.url}${path}`, { redirect: 'manual', headers: who === undefined ? {} : { cookie: cookies[who]! } });
  const createRoom = async (who: string, title: string): Promise<string> => {
    const res = await post('/account/rooms', who, { title });
    expect(res.status).toBe(303);
    return res.headers.get('location')!.split('/').at(-1)!;
  };
  const roomsOf = () => h.testStore.store.read.rooms;

  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, {
      env: { ...FEATURES, HELIX_LOG_LEVEL: 'info' },
      logger: createLogger('info', { write: (line: string) => void logLines.push(line) }),
    });
    origin = new URL(h.url).origin;
    await signIn('alice', true);
    await signIn('bob', false);
    await signIn('carol', true);
  });
  afterAll(() => h?.close());

  it('D-09: a guest is shown the sign-in page (401) and changes nothing', async () => {
    const page = await get('/account/rooms');
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('Sign in to Helix');
    expect((await post('/account/rooms', undefined, { title: 'Guest room' })).status).toBe(401);
    expect((await post('/account/rooms/invite', undefined, { token: `hlxinv_${'a'.repeat(43)}` })).status).toBe(401);
    expect(await roomsOf().listAllRooms()).toEqual([]);
  });

  it('D-09: a form post without an Origin, from another site, or cross-site by Sec-Fetch-Site is refused (403)', async () => {
    const noOrigin = await fetch(`${h.url}/account/rooms`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.alice! },
      body: 'title=Forged',
    });
    expect(noOrigin.status).toBe(403);
    expect(
      (await post('/account/rooms', 'alice', { title: 'Forged' }, { origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect(
      (await post('/account/rooms', 'alice', { title: 'Forged' }, { 'sec-fetch-site': 'cross-site' })).status,
    ).toBe(403);
    expect(await roomsOf().listAllRooms()).toEqual([]);
  });

  it('D-09, PRE-01: create, invite shown once (hashed in the store, never logged), join, consent, role, list', async () => {
    const roomId = await createRoom('alice', 'Build <site>');
    const page = await (await get(`/account/rooms/${roomId}`, 'alice')).text();
    expect(page).toContain('<h1>Build &lt;site&gt;</h1>');
    expect(page).toContain('You accepted consent v1.');

    const invited = await post(`/account/rooms/${roomId}/invites`, 'alice', { role: 'member', ttl: '1h' });
    expect(invited.status).toBe(201);
    const link = /<code id="invite-link">([^<]+)<\/code>/.exec(await invited.text())?.[1];
    expect(link).toMatch(new RegExp(`^${origin}/account/rooms/invite#hlxinv_[A-Za-z0-9_-]{43}$`));
    const token = link!.split('#')[1]!;
    // Shown once: the room page never shows it again.
    expect(await (await get(`/account/rooms/${roomId}`, 'alice')).text()).not.toContain(token);

    const joined = await post('/account/rooms/invite', 'bob', { token });
    expect(joined.status).toBe(303);
    expect(joined.headers.get('location')).toBe(`/account/rooms/${roomId}`);
    const bobsPage = await (await get(`/account/rooms/${roomId}`, 'bob')).text();
    expect(bobsPage).toContain('Accept consent v1');
    expect((await post('/account/rooms/invite', 'carol', { token })).status).toBe(404); // single use
    expect((await post(`/account/rooms/${roomId}/consent/accept`, 'bob', { version: '1' })).status).toBe(303);
    expect(
      (await post(`/account/rooms/${roomId}/members/role`, 'alice', { account: ids.bob!, role: 'observer' })).status,
    ).toBe(303);

    expect(await roomsOf().getMember(roomId, ids.bob!)).toMatchObject({ role: 'observer', acceptedConsentVersion: 1 });
    expect((await roomsOf().listMembers(roomId)).length).toBe(2);
    expect(await (await get('/account/rooms', 'bob')).text()).toContain(
      `href="/account/rooms/${roomId}">Build &lt;site&gt;</a>`,
    );
    // Nothing but the hash is kept, and no log line carries the token.
    expect(await roomsOf().consumeInvite(sha256Hex(token), ids.carol!, Date.now())).toBeUndefined();
    expect(logLines.join('\n')).not.toContain(token);
    expect(logLines.join('\n')).toContain('/account/rooms/invite');
  });

  it('D-09, issue 27 item 2: the owner sees the invites and revokes one; the link then seats no one', async () => {
    const roomId = await createRoom('alice', 'Invites');
    const invited = await post(`/account/rooms/${roomId}/invites`, 'alice', { role: 'owner', ttl: '7d' });
    const token = /<code id="invite-link">[^<#]+#([^<]+)<\/code>/.exec(await invited.text())?.[1];
    expect(token).toBeDefined();
    const page = await (await get(`/account/rooms/${roomId}`, 'alice')).text();
    const inviteRef = /<tr data-invite="(rinv_[0-9a-f]{32})">/.exec(page)?.[1];
    expect(inviteRef).toBeDefined();
    expect(page).toMatch(new RegExp(`<tr data-invite="${inviteRef}">.*<td class="status">pending</td>`));
    expect(page).toContain(`action="/account/rooms/${roomId}/invites/${inviteRef}/revoke"`);
    expect(page).not.toContain(token);
    expect(page).not.toContain(sha256Hex(token!));

    // Another account, or a cross-site form, cannot revoke it.
    expect((await post(`/account/rooms/${roomId}/invites/${inviteRef}/revoke`, 'carol', {})).status).toBe(404);
    const crossSite = await post(
      `/account/rooms/${roomId}/invites/${inviteRef}/revoke`,
      'alice',
      {},
      {
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    );
    expect(crossSite.status).toBe(403);
    const revoked = await post(`/account/rooms/${roomId}/invites/${inviteRef}/revoke`, 'alice', {});
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe(`/account/rooms/${roomId}`);
    const after = await (await get(`/account/rooms/${roomId}`, 'alice')).text();
    expect(after).toMatch(new RegExp(`<tr data-invite="${inviteRef}">.*<td class="status">revoked</td>`));
    expect(after).not.toContain(`/invites/${inviteRef}/revoke`);
    expect((await post('/account/rooms/invite', 'carol', { token: token! })).status).toBe(404);
    expect((await post(`/account/rooms/${roomId}/invites/rinv_nope/revoke`, 'alice', {})).status).toBe(404);
  });

  it("RREST-03: another account's room is not found, exactly like a missing one, and nothing changes", async () => {
    const roomId = await createRoom('alice', 'Private');
    const missing = await get(`/account/rooms/room_${'0'.repeat(24)}`, 'carol');
    const theirs = await get(`/account/rooms/${roomId}`, 'carol');
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).toBe(await missing.text());
    for (const [path, form] of [
      ['/members/role', { account: ids.alice!, role: 'observer' }],
      ['/members/remove', { account: ids.alice! }],
      ['/consent', { text: 'Taken over' }],
      ['/invites', { role: 'owner', ttl: '1d' }],
      ['/consent/accept', { version: '1' }],
    ] as const)
      expect((await post(`/account/rooms/${roomId}${path}`, 'carol', form)).status, path).toBe(404);
    expect((await roomsOf().getRoom(roomId))?.consentVersion).toBe(1);
    expect((await roomsOf().listMembers(roomId)).map((m) => m.accountId)).toEqual([ids.alice]);
  });

  it('refuses bad input with 400 (409 for a consent version that is not current) and changes nothing', async () => {
    const roomId = await createRoom('alice', 'Inputs');
    const cases: [string, Record<string, string>, number, string][] = [
      ['/account/rooms', { title: '  ' }, 400, 'must not be empty'],
      ['/account/rooms', { title: 'x'.repeat(201) }, 400, 'at most 200'],
      [`/account/rooms/${roomId}/invites`, { role: 'member', ttl: '30d' }, 400, 'must be 1h, 1d or 7d'],
      [`/account/rooms/${roomId}/invites`, { role: 'admin', ttl: '1d' }, 400, ''],
      [`/account/rooms/${roomId}/members/role`, { account: ids.alice!, role: 'observer' }, 403, ''],
      [`/account/rooms/${roomId}/consent`, { text: '' }, 400, 'must not be empty'],
      [`/account/rooms/${roomId}/consent/accept`, { version: 'one' }, 400, 'consent version number'],
      [`/account/rooms/${roomId}/consent/accept`, { version: '1' }, 409, ''],
      ['/account/rooms/invite', { token: 'not-a-token' }, 404, ''],
    ];
    // The longest consent text (CONSENT_TEXT_MAX, 4,000 UTF-16 units) fits its form, here 24 KB once form-encoded.
    const longest = '😀'.repeat(2000);
    expect((await post(`/account/rooms/${roomId}/consent`, 'alice', { text: longest })).status).toBe(303);
    expect((await roomsOf().getConsentVersion(roomId, 2))?.text).toBe(longest);
    for (const [path, form, status, text] of cases) {
      const res = await post(path, 'alice', form);
      expect(res.status, `${path} ${JSON.stringify(form)}`).toBe(status);
      expect(await res.text()).toContain(text);
    }
    // Bob has no agent binding, so no tenant for a console room.
    const noTenant = await post('/account/rooms', 'bob', { title: 'Mine' });
    expect(noTenant.status).toBe(400);
    expect(await noTenant.text()).toContain('link an agent identity');
    expect((await roomsOf().getRoom(roomId))?.consentVersion).toBe(2);
  });
});

describe('the invite link behind a proxy (D-09)', () => {
  it('names HELIX_PUBLIC_BASE_URL, the address invitees reach, not the Host the owner’s request carried', async () => {
    const h = await startTestHelix(storeFlavours()[0]!, {
      env: { ...FEATURES, HELIX_PUBLIC_BASE_URL: 'https://helix.example.com' },
    });
    try {
      const deps = await accountDeps(h.testStore.store);
      const { accountId } = await createAccount(deps, { displayName: 'Owner' });
      await linkIdentity(deps, accountId, {
        issuer: 'https://login.example.com',
        tenantId: 'acme',
        provider: 'idp',
        subject: 'owner',
      });
      const cookie = await signInCookie(h.url, deps, accountId);
      const form = (path: string, body: Record<string, string>) => consoleForm(h.url, cookie, path, body);
      const created = await form('/account/rooms', { title: 'Proxied' });
      const roomId = created.headers.get('location')!.split('/').at(-1)!;
      const invited = await form(`/account/rooms/${roomId}/invites`, { role: 'member', ttl: '1h' });
      const link = /<code id="invite-link">([^<]+)<\/code>/.exec(await invited.text())?.[1];
      expect(link).toMatch(/^https:\/\/helix\.example\.com\/account\/rooms\/invite#hlxinv_[A-Za-z0-9_-]{43}$/);
    } finally {
      await h.close();
    }
  });
});
