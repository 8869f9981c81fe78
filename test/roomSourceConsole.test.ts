import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SourceClaimReceiptSchema,
  SourceCreateReceiptSchema,
  SourceListReceiptSchema,
  SourceRevokeReceiptSchema,
  SourceRotateReceiptSchema,
} from '../src/api/roomOutputSchemas.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { featuresFrom } from '../src/domain/accountPolicy.js';
import { sha256Hex } from '../src/domain/hashing.js';
import { SOURCE_BEARER_PATTERN } from '../src/domain/roomSources.js';
import { createLogger } from '../src/logger.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import type { AccountDeps } from '../src/service/accounts/deps.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { createInvite } from '../src/service/rooms/createInvite.js';
import { createRoomFor } from '../src/service/rooms/createRoomFor.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import { authenticateSourceBearer } from '../src/service/roomSources/authenticateSourceBearer.js';
import { summarizeSubject } from '../src/service/subjects/summarizeSubject.js';
import { accountDeps } from './support/accounts.js';
import { type ConsoleReply, consoleFetch, signInCookie } from './support/consoleSession.js';
import { startTestHelix, type TestHelix } from './support/harness.js';
import { serverRoomDeps } from './support/roomDeps.js';
import { serverStoreFlavours, storeFlavours } from './support/stores.js';

const REALTIME = '/api/agi/realtime';
const CLAIM = `${REALTIME}/room-source-credential-deliveries/claim`;
const bindings = (roomId: string) => `${REALTIME}/rooms/${roomId}/source-bindings`;
const BODY = {
  domain_adapter: 'game.minecraft.readonly.v1',
  world_id: 'minecraft:overworld',
  source_label: 'Survival',
  ttl_ms: 3_600_000,
};
const DEFAULTS = {
  features: featuresFrom(['shared_live_room']),
  defaultCapability: 'admit' as const,
  capabilities: {},
};
const ENV = { HELIX_ACCOUNT_DEFAULT_FEATURES: 'shared_live_room', HELIX_LOG_LEVEL: 'info' };
const BEARER_SHAPE = /hlxsrc_[A-Za-z0-9_-]{43}/;

type Reply = ConsoleReply;

/** One signed-in browser account per name, over a running server. */
class Console {
  readonly cookies: Record<string, string> = {};
  readonly ids: Record<string, string> = {};
  accounts!: AccountDeps;
  rooms!: RoomDeps;
  constructor(readonly h: TestHelix) {}

  get origin(): string {
    return new URL(this.h.url).origin;
  }

  async init(): Promise<this> {
    this.accounts = await accountDeps(this.h.testStore.store);
    this.rooms = await serverRoomDeps(this.h.testStore.store, DEFAULTS);
    return this;
  }

  async signIn(name: string, developer: boolean): Promise<string> {
    const { accountId } = await createAccount(this.accounts, { displayName: name });
    if (developer) await changeAccountPolicy(this.accounts, DEFAULTS, accountId, { features: { developer: true } });
    this.ids[name] = accountId;
    this.cookies[name] = await signInCookie(this.h.url, this.accounts, accountId);
    return accountId;
  }

  async room(owner: string, members: readonly string[] = []): Promise<string> {
    const room = await createRoomFor(this.rooms, this.ids[owner]!, 'acme', 'World');
    for (const member of members) {
      const invite = await createInvite(this.rooms, this.ids[owner]!, room.room_id, { role: 'member' });
      await acceptInvite(this.rooms, this.ids[member]!, invite.token);
    }
    return room.room_id;
  }

  /** A same-origin fetch from the console page, unless the test overrides the headers. */
  async send(
    who: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    return consoleFetch(this.h.url, who === undefined ? undefined : this.cookies[who]!, method, path, body, headers);
  }

  /** A source of the room, created by its owner; answers its id and claim handle. */
  async source(owner: string, roomId: string): Promise<{ id: string; handle: string }> {
    const created = await this.send(owner, 'POST', bindings(roomId), BODY);
    expect(created.status, created.text).toBe(201);
    return { id: created.body.source.source_id, handle: created.body.credential_delivery.claim_handle };
  }

  async claim(who: string, handle: string): Promise<Reply> {
    return this.send(who, 'POST', CLAIM, { claim_handle: handle });
  }

  /** Resolves to the source when the bearer authenticates for the binding, rejects otherwise. */
  authenticates(sourceId: string, bearer: string) {
    return authenticateSourceBearer({ store: this.h.testStore.store, now: Date.now }, sourceId, bearer);
  }
}

describe.each(serverStoreFlavours())('the console source manager and credential claim on $name', (flavour) => {
  let c: Console;
  const logLines: string[] = [];

  beforeAll(async () => {
    const h = await startTestHelix(flavour, {
      env: ENV,
      logger: createLogger('info', { write: (line: string) => void logLines.push(line) }),
    });
    c = await new Console(h).init();
    await c.signIn('alice', true); // developer room owner
    await c.signIn('bob', true); // developer, a member of alice's rooms
    await c.signIn('carol', true); // developer, a stranger to alice's rooms
    await c.signIn('dave', false); // owner without the developer flag
  });
  afterAll(() => c?.h.close());

  it('SRC-04, SRC-05: the owner creates a source, claims it once; the bearer is shown once and stored only as its hash', async () => {
    const roomId = await c.room('alice');
    const created = await c.send('alice', 'POST', bindings(roomId), BODY);
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({ bearer_included: false, plugin_config_included: false });
    expect(created.body.source).toMatchObject({
      room_id: roomId,
      status: 'active',
      credential_status: 'pending_claim',
    });
    const delivery = created.body.credential_delivery;
    expect(delivery.claim_url).toBe(`/account/room-sources/claim#${delivery.claim_handle}`);
    expect(delivery.claim_handle).toMatch(/^hlxdlv_[A-Za-z0-9_-]{43}$/);
    const sourceId = created.body.source.source_id as string;

    const listed = await c.send('alice', 'GET', bindings(roomId));
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.body.sources.map((s: { source_id: string }) => s.source_id)).toEqual([sourceId]);
    expect(listed.text).not.toContain(delivery.claim_handle);

    const claimed = await c.claim('alice', delivery.claim_handle);
    expect(claimed.status, claimed.text).toBe(200);
    // The published contract (docs/openapi.json) parses every answer.
    SourceCreateReceiptSchema.parse(created.body);
    SourceListReceiptSchema.parse(listed.body);
    SourceClaimReceiptSchema.parse(claimed.body);
    expect(claimed.headers.get('cache-control')).toBe('no-store');
    expect(claimed.body).toMatchObject({
      token_value_shown_once: true,
      plugin_config: {
        binding_id: sourceId,
        room_id: roomId,
        domain_adapter: BODY.domain_adapter,
        world_id: BODY.world_id,
        adapter_profile_id: 'game.minecraft.readonly.v1',
        ingress_base_path: `/api/room-ingress/v1/bindings/${sourceId}`,
      },
    });
    const bearer = claimed.body.token_value as string;
    expect(bearer).toMatch(SOURCE_BEARER_PATTERN);
    expect((await c.authenticates(sourceId, bearer)).sourceId).toBe(sourceId);

    // The durable row holds the SHA-256 only; no later answer and no log line holds the bearer.
    const row = await c.h.testStore.store.read.roomSources.getSource(sourceId);
    expect(row?.credentialHash).toBe(sha256Hex(bearer));
    expect(JSON.stringify(row)).not.toContain(bearer);
    const again = await c.claim('alice', delivery.claim_handle);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
    const after = await c.send('alice', 'GET', bindings(roomId));
    expect(after.body.sources[0].credential_status).toBe('issued');
    for (const text of [created.text, listed.text, after.text, again.text]) expect(text).not.toMatch(BEARER_SHAPE);
    const log = logLines.join('\n');
    expect(log).not.toContain(bearer);
    expect(log).not.toContain(delivery.claim_handle);
    expect(log).toContain(CLAIM);
    // The console's source and its delivery are the account's data: subject access counts them.
    const { records } = await summarizeSubject(c.accounts, c.ids.alice!);
    expect(records).toMatchObject({ room_sources: 1, room_source_deliveries: 1, owner_registrations: 1 });
  });

  it('SRC-06: rotation stops the bearer at once and answers a new delivery; revocation (POST and DELETE) ends the source', async () => {
    const roomId = await c.room('alice');
    const first = await c.source('alice', roomId);
    const bearer = (await c.claim('alice', first.handle)).body.token_value as string;

    const rotated = await c.send('alice', 'POST', `${bindings(roomId)}/${first.id}/rotate`);
    expect(rotated.status, rotated.text).toBe(200);
    SourceRotateReceiptSchema.parse(rotated.body);
    expect(rotated.body).toMatchObject({ bearer_included: false, source: { credential_status: 'pending_claim' } });
    expect(rotated.text).not.toMatch(BEARER_SHAPE);
    await expect(c.authenticates(first.id, bearer)).rejects.toMatchObject({ code: 'invalid_token' });
    const next = await c.claim('alice', rotated.body.credential_delivery.claim_handle);
    expect(next.status).toBe(200);
    const nextBearer = next.body.token_value as string;
    expect(nextBearer).not.toBe(bearer);
    expect((await c.authenticates(first.id, nextBearer)).sourceId).toBe(first.id);

    const revoked = await c.send('alice', 'POST', `${bindings(roomId)}/${first.id}/revoke`);
    expect(revoked.status).toBe(200);
    SourceRevokeReceiptSchema.parse(revoked.body);
    expect(revoked.body).toMatchObject({ revocation_status: 'revoked', source: { status: 'revoked' } });
    await expect(c.authenticates(first.id, nextBearer)).rejects.toMatchObject({ code: 'invalid_token' });
    expect((await c.send('alice', 'DELETE', `${bindings(roomId)}/${first.id}`)).body.revocation_status).toBe(
      'already_revoked',
    );
    expect((await c.send('alice', 'POST', `${bindings(roomId)}/${first.id}/rotate`)).status).toBe(404);

    const second = await c.source('alice', roomId);
    const secondBearer = (await c.claim('alice', second.handle)).body.token_value as string;
    const deleted = await c.send('alice', 'DELETE', `${bindings(roomId)}/${second.id}`);
    expect(deleted.body).toMatchObject({ revocation_status: 'revoked', source: { status: 'revoked' } });
    await expect(c.authenticates(second.id, secondBearer)).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('SRC-04, D-05: a member, a stranger and an owner without the developer flag cannot claim; the handle survives', async () => {
    const roomId = await c.room('alice', ['bob']);
    const { id, handle } = await c.source('alice', roomId);
    for (const who of ['bob', 'carol']) {
      const refused = await c.claim(who, handle);
      expect(refused.status, who).toBe(404);
      expect(refused.body.code).toBe('not_found');
    }
    const davesRoom = await c.room('dave');
    const daves = await c.source('dave', davesRoom);
    const notDeveloper = await c.claim('dave', daves.handle);
    expect(notDeveloper.status).toBe(403);
    expect(notDeveloper.body).toMatchObject({ code: 'feature_not_enabled', feature: 'developer' });
    expect((await c.h.testStore.store.read.roomSources.getSource(id))?.credentialHash).toBeNull();
    expect((await c.claim('alice', handle)).status).toBe(200);
  });

  it("SRC-06: another account's source is not found, a member is refused as a non-owner, and nothing changes", async () => {
    const roomId = await c.room('alice', ['bob']);
    const { id } = await c.source('alice', roomId);
    const otherRoom = await c.room('alice');
    const ops = (room: string) =>
      [
        ['GET', bindings(room), undefined],
        ['POST', bindings(room), BODY],
        ['POST', `${bindings(room)}/${id}/rotate`, undefined],
        ['POST', `${bindings(room)}/${id}/revoke`, undefined],
        ['DELETE', `${bindings(room)}/${id}`, undefined],
      ] as const;
    for (const [method, path, body] of ops(roomId)) {
      const stranger = await c.send('carol', method, path, body);
      expect([stranger.status, stranger.body.code], `carol ${method} ${path}`).toEqual([404, 'not_found']);
      const member = await c.send('bob', method, path, body);
      expect([member.status, member.body.code], `bob ${method} ${path}`).toEqual([403, 'room_role_forbidden']);
    }
    // The owner's own source named under another of its rooms is not found there.
    for (const [method, path, body] of ops(otherRoom).slice(2)) {
      expect((await c.send('alice', method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await c.send('alice', 'GET', bindings(otherRoom))).body.sources).toEqual([]);
    const row = await c.h.testStore.store.read.roomSources.getSource(id);
    expect(row).toMatchObject({ status: 'active', rotatedAt: null, revokedAt: null });
    expect((await c.send('alice', 'GET', bindings(roomId))).body.sources).toHaveLength(1);
  });

  it('D-05: without a session every route answers 401 session_required and nothing changes', async () => {
    const roomId = await c.room('alice');
    const { id, handle } = await c.source('alice', roomId);
    const routes = [
      ['GET', bindings(roomId), undefined],
      ['POST', bindings(roomId), BODY],
      ['POST', `${bindings(roomId)}/${id}/rotate`, undefined],
      ['POST', `${bindings(roomId)}/${id}/revoke`, undefined],
      ['DELETE', `${bindings(roomId)}/${id}`, undefined],
      ['POST', CLAIM, { claim_handle: handle }],
    ] as const;
    for (const [method, path, body] of routes) {
      for (const cookie of [undefined, 'helix_session=forged']) {
        const res = await c.send(undefined, method, path, body, cookie === undefined ? {} : { cookie });
        expect([res.status, res.body.code], `${method} ${path} ${cookie}`).toEqual([401, 'session_required']);
      }
    }
    expect((await c.send('alice', 'GET', bindings(roomId))).body.sources).toHaveLength(1);
    expect((await c.claim('alice', handle)).status).toBe(200);
  });

  it('OBS-18, SRC-04: a cross-site request is refused (403) before the session is read; the handle survives', async () => {
    const roomId = await c.room('alice');
    const { id, handle } = await c.source('alice', roomId);
    const forged = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      // A loopback origin the app-wide policy admits outside production, but not this server's.
      { origin: 'http://127.0.0.1:9' },
    ];
    for (const headers of forged) {
      for (const [method, path, body] of [
        ['POST', CLAIM, { claim_handle: handle }],
        ['POST', bindings(roomId), BODY],
        ['POST', `${bindings(roomId)}/${id}/revoke`, undefined],
        ['GET', bindings(roomId), undefined],
      ] as const) {
        const res = await c.send('alice', method, path, body, headers);
        expect([res.status, res.body.code], `${method} ${path} ${JSON.stringify(headers)}`).toEqual([
          403,
          'forbidden_origin',
        ]);
      }
    }
    // A mutation without any Origin (a plain form or script from elsewhere cannot omit it in a browser).
    const noOrigin = await fetch(`${c.h.url}${CLAIM}`, {
      method: 'POST',
      headers: { cookie: c.cookies.alice!, 'content-type': 'application/json' },
      body: JSON.stringify({ claim_handle: handle }),
    });
    expect(noOrigin.status).toBe(403);
    expect((await c.send('alice', 'GET', bindings(roomId))).body.sources).toHaveLength(1);
    expect((await c.claim('alice', handle)).status).toBe(200);
  });

  it('refuses bad input with 400 or 404 and changes nothing', async () => {
    const roomId = await c.room('alice');
    const { id } = await c.source('alice', roomId);
    const cases: [string, string, unknown, number][] = [
      ['POST', bindings(roomId), { ...BODY, ttl_ms: 1 }, 400],
      ['POST', bindings(roomId), { ...BODY, token: 'x' }, 400],
      ['POST', bindings(roomId), { ...BODY, source_label: `hlx_${'A'.repeat(43)}` }, 400],
      ['POST', bindings(roomId), { ...BODY, domain_adapter: 'game.unknown.v1' }, 400],
      ['POST', `${bindings(roomId)}/${id}/rotate`, { reason: 'x' }, 400],
      ['DELETE', `${bindings(roomId)}/${id}`, { force: true }, 400],
      ['POST', `${bindings(roomId)}/rsb_nothex/rotate`, undefined, 404],
      ['POST', CLAIM, { claim_handle: 'hlxdlv_short' }, 404],
      ['POST', CLAIM, { claim_handle: `hlxdlv_${'a'.repeat(43)}`, extra: 1 }, 400],
      ['POST', CLAIM, {}, 400],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await c.send('alice', method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)} ${res.text}`).toBe(status);
    }
    const query = await c.send('alice', 'POST', `${bindings(roomId)}/${id}/revoke?now=1`);
    expect(query.status).toBe(400);
    expect((await c.send('alice', 'GET', bindings(roomId))).body.sources).toMatchObject([{ status: 'active' }]);
  });
});

describe('the console source forms and claim page over HTTP (SRC-04, SRC-06)', () => {
  let c: Console;
  beforeAll(async () => {
    c = await new Console(await startTestHelix(storeFlavours()[0]!, { env: ENV })).init();
    await c.signIn('alice', true);
    await c.signIn('bob', true);
  });
  afterAll(() => c?.h.close());

  const form = (who: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${c.h.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: c.origin,
        'sec-fetch-site': 'same-origin',
        cookie: c.cookies[who]!,
        ...headers,
      },
      body: new URLSearchParams(fields),
    });
  const page = async (who: string, path: string) =>
    (await fetch(`${c.h.url}${path}`, { headers: { cookie: c.cookies[who]! } })).text();
  const FIELDS = {
    domain_adapter: BODY.domain_adapter,
    world_id: 'minecraft:home',
    source_label: 'Home <base>',
    ttl: '1d',
  };
  const claimLinkIn = (html: string) => /<a id="claim-link" href="([^"]+)"/.exec(html)?.[1] ?? '';

  it('SRC-06: the owner creates, rotates and revokes on the room page; the claim link is shown once; a member sees no sources', async () => {
    const roomId = await c.room('alice', ['bob']);
    const roomPath = `/account/rooms/${roomId}`;
    expect(await page('alice', roomPath)).toContain('id="no-sources"');
    const created = await form('alice', `${roomPath}/sources`, FIELDS);
    expect(created.status).toBe(201);
    const html = await created.text();
    const link = claimLinkIn(html);
    expect(link).toMatch(new RegExp(`^${c.origin}/account/room-sources/claim#hlxdlv_[A-Za-z0-9_-]{43}$`));
    expect(html).toContain('Home &lt;base&gt;');
    const sourceId = /data-source="(rsb_[0-9a-f]{32})"/.exec(html)?.[1] ?? '';
    const row = await c.h.testStore.store.read.roomSources.getSource(sourceId);
    expect(row).toMatchObject({ roomId, label: 'Home <base>', worldId: 'minecraft:home', createdBy: c.ids.alice });

    const later = await page('alice', roomPath);
    expect(later).not.toContain(link.split('#')[1]);
    expect(later).toContain('<td class="credential">pending_claim</td>');
    expect(await page('bob', roomPath)).not.toContain('<h2>Sources</h2>');

    const claimed = await c.claim('alice', link.split('#')[1]!);
    const bearer = claimed.body.token_value as string;
    const rotated = await form('alice', `${roomPath}/sources/${sourceId}/rotate`, {});
    expect(rotated.status).toBe(200);
    const rotatedLink = claimLinkIn(await rotated.text());
    expect(rotatedLink).toMatch(/#hlxdlv_/);
    expect(rotatedLink).not.toBe(link);
    await expect(c.authenticates(sourceId, bearer)).rejects.toMatchObject({ code: 'invalid_token' });

    const revoked = await form('alice', `${roomPath}/sources/${sourceId}/revoke`, {});
    expect([revoked.status, revoked.headers.get('location')]).toEqual([303, roomPath]);
    expect(await page('alice', roomPath)).toContain('<td class="status">revoked</td>');
    expect((await c.h.testStore.store.read.roomSources.getSource(sourceId))?.status).toBe('revoked');
  });

  it('SRC-06: a member, a cross-site form and a bad lifetime are refused, and nothing changes', async () => {
    const roomId = await c.room('alice', ['bob']);
    const roomPath = `/account/rooms/${roomId}`;
    expect((await form('bob', `${roomPath}/sources`, FIELDS)).status).toBe(403);
    expect((await form('alice', `${roomPath}/sources`, FIELDS, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await form('alice', `${roomPath}/sources`, FIELDS, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const badTtl = await form('alice', `${roomPath}/sources`, { ...FIELDS, ttl: '1y' });
    expect(badTtl.status).toBe(400);
    expect(await badTtl.text()).toContain('must be one of 1h, 1d, 7d, 30d, 90d');
    expect(await c.h.testStore.store.read.roomSources.listSources(roomId, 10)).toEqual([]);
  });

  it('SRC-04: the claim page needs a session and loads its script from this origin; the handle is never in a URL the server sees', async () => {
    const guest = await fetch(`${c.h.url}/account/room-sources/claim`);
    expect(guest.status).toBe(401);
    const res = await fetch(`${c.h.url}/account/room-sources/claim`, { headers: { cookie: c.cookies.alice! } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('<script src="/account/room-sources/claim.js"></script>');
    const script = await (await fetch(`${c.h.url}/account/room-sources/claim.js`)).text();
    expect(script).toContain("history.replaceState(null, '', location.pathname)");
    expect(script).toContain('/api/agi/realtime/room-source-credential-deliveries/claim');
  });
});

describe('source manager limits (SRC-10)', () => {
  const sqlite = storeFlavours().find((f) => f.name === 'sqlite')!;

  it('HELIX_ROOM_SOURCE_BROWSER_ACCOUNT_RATE_LIMIT counts each signed-in account; 429 with Retry-After', async () => {
    const c = await new Console(
      await startTestHelix(sqlite, { env: { ...ENV, HELIX_ROOM_SOURCE_BROWSER_ACCOUNT_RATE_LIMIT: '3' } }),
    ).init();
    try {
      await c.signIn('alice', true);
      await c.signIn('bob', true);
      const roomId = await c.room('alice');
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await c.send('alice', 'GET', bindings(roomId))).status);
      expect(statuses).toEqual([200, 200, 200]);
      const refused = await c.claim('alice', `hlxdlv_${'a'.repeat(43)}`);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // The room page's source forms share the budget; another account has its own.
      const viaForm = await fetch(`${c.h.url}/account/rooms/${roomId}/sources/rsb_${'0'.repeat(32)}/revoke`, {
        method: 'POST',
        headers: {
          cookie: c.cookies.alice!,
          origin: c.origin,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: '',
      });
      expect(viaForm.status).toBe(429);
      expect(viaForm.headers.get('retry-after')).not.toBeNull();
      // Bob is no member: not found, not rate limited.
      expect((await c.send('bob', 'GET', bindings(roomId))).status).toBe(404);
    } finally {
      await c.h.close();
    }
  });

  it('HELIX_ROOM_SOURCE_BROWSER_IP_RATE_LIMIT is a pre-session bucket of its own; 0 turns the limits off', async () => {
    const limited = await startTestHelix(sqlite, {
      env: { ...ENV, HELIX_ROOM_SOURCE_BROWSER_IP_RATE_LIMIT: '2', HELIX_AGENT_IP_RATE_LIMIT: '5' },
    });
    const off = await startTestHelix(sqlite, {
      env: {
        ...ENV,
        HELIX_ROOM_SOURCE_BROWSER_IP_RATE_LIMIT: '0',
        HELIX_ROOM_SOURCE_BROWSER_ACCOUNT_RATE_LIMIT: '0',
      },
    });
    try {
      const guest = (h: TestHelix) =>
        fetch(`${h.url}${CLAIM}`, {
          method: 'POST',
          headers: { origin: new URL(h.url).origin, 'content-type': 'application/json' },
          body: JSON.stringify({ claim_handle: `hlxdlv_${'a'.repeat(43)}` }),
        });
      const seen: number[] = [];
      for (let i = 0; i < 3; i += 1) seen.push((await guest(limited)).status);
      expect(seen).toEqual([401, 401, 429]);
      expect((await fetch(`${limited.url}/account/room-sources/claim`)).status).toBe(429);
      // Another surface's budget is untouched.
      expect((await fetch(`${limited.url}/account/rooms`)).status).toBe(401);
      const unlimited = new Set<number>();
      for (let i = 0; i < 30; i += 1) unlimited.add((await guest(off)).status);
      expect(unlimited).toEqual(new Set([401]));
    } finally {
      await Promise.all([limited.close(), off.close()]);
    }
  });

  it('reads both variables once, defaults 600 per IP and 300 per account, refusing bad values', () => {
    expect(loadConfig({}).rateLimits).toMatchObject({ roomSourcesPerIp: 600, roomSourcesPerAccount: 300 });
    const set = loadConfig({
      HELIX_ROOM_SOURCE_BROWSER_IP_RATE_LIMIT: '0',
      HELIX_ROOM_SOURCE_BROWSER_ACCOUNT_RATE_LIMIT: '9',
    });
    expect([set.rateLimits.roomSourcesPerIp, set.rateLimits.roomSourcesPerAccount]).toEqual([0, 9]);
    for (const name of ['HELIX_ROOM_SOURCE_BROWSER_IP_RATE_LIMIT', 'HELIX_ROOM_SOURCE_BROWSER_ACCOUNT_RATE_LIMIT'])
      for (const bad of ['-1', 'many', '1e3'])
        expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(ConfigError);
  });
});
