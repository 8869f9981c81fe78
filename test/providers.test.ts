import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ISSUER } from '../src/auth/authenticate.js';
import { loadInstanceSecret } from '../src/auth/instanceSecret.js';
import { ownershipOf } from '../src/auth/principal.js';
import { ScopeSet } from '../src/domain/scopes.js';
import { createLogger } from '../src/logger.js';
import { OwnerModelResolver } from '../src/providers/ownerModelResolver.js';
import type { ProviderSettings } from '../src/providers/providerSettings.js';
import { SecretBox, decodeSecretKey } from '../src/providers/secretBox.js';
import { PUBLIC_DNS, tableResolver } from './support/fakeDns.js';
import { ALL_RUN_SCOPES, api, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours, type TestStore } from './support/stores.js';
import { inspectable, pgliteOf } from './support/tableDump.js';

const PROVIDERS = '/api/v1/model-providers';
const RW = 'helix.model_providers.read helix.model_providers.write';

const flavours = inspectable(storeFlavours());

/** Everything the database holds for the test to search: file bytes where there are files, else the rows. */
const storedBytes = async (t: TestStore): Promise<Buffer> => {
  const db = pgliteOf(t.store);
  if (db !== undefined) {
    await db.query('CHECKPOINT');
    const rows = await db.query('SELECT * FROM helix_model_providers');
    const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    return Buffer.concat([Buffer.from(JSON.stringify(rows.rows)), dump]);
  }
  if (t.location?.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: t.location });
    await client.connect();
    const rows = await client.query('SELECT row_to_json(p)::text AS row FROM helix_model_providers p');
    await client.end();
    return Buffer.from(rows.rows.map((r: { row: string }) => r.row).join('\n'));
  }
  const files = [t.location!, `${t.location!}-wal`, `${t.location!}-shm`].filter((f) => existsSync(f));
  return Buffer.concat(files.map((f) => readFileSync(f)));
};

describe.each(flavours)('model provider registrations on $name', (flavour) => {
  const SECRET_KEY = randomBytes(32).toString('base64');
  const API_KEY = `sk-proj-${randomBytes(24).toString('hex')}`;
  // Any recognizable part of the key counts as a leak, not only the whole of it.
  const API_KEY_PARTS = [API_KEY, API_KEY.slice(8, 28), API_KEY.slice(-16)];
  const lines: string[] = [];
  const bodies: string[] = [];
  let h: TestHelix;
  let owner: string;
  let ownerAdr: string;
  let otherOwner: string;

  const call = async (method: string, path: string, token: string | undefined, body?: unknown) => {
    const res = await api(h.url, method, path, {
      ...(token === undefined ? {} : { token }),
      ...(body === undefined ? {} : { body }),
    });
    bodies.push(res.text);
    return res;
  };
  const register = (token: string, body: Record<string, unknown>) => call('POST', PROVIDERS, token, body);
  const valid = {
    kind: 'openai-responses',
    base_url: 'https://api.openai.com/v1/',
    model: 'gpt-5',
    api_key: API_KEY,
    reasoning_effort: 'low',
    label: 'team key',
  };

  beforeAll(async () => {
    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    h = await startTestHelix(flavour, {
      logger,
      resolveHost: tableResolver(PUBLIC_DNS),
      // The keyless local server below is on loopback, which owners may use only by the operator's leave.
      env: {
        HELIX_PROVIDER_SECRET_KEY: SECRET_KEY,
        HELIX_LOG_LEVEL: 'debug',
        HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: '127.0.0.1/32',
      },
    });
    owner = await h.key(RW, 'tenant-a', 'account-a');
    ownerAdr = await h.key('provider.read provider.write', 'tenant-a', 'account-a');
    otherOwner = await h.key(RW, 'tenant-a', 'account-b');
  });
  afterAll(async () => h?.close());

  it('registers, lists, inspects and deletes, showing whether a key is stored but never the key', async () => {
    const created = await register(owner, valid);
    expect(created.status).toBe(201);
    const id: string = created.body.provider_id;
    expect(id).toMatch(/^mp_[A-Za-z0-9_-]{22}$/);
    expect(created.headers.get('location')).toBe(`${PROVIDERS}/${id}`);
    expect(created.body).toEqual({
      schema: 'helix.model_provider.v1',
      provider_id: id,
      kind: 'openai-responses',
      base_url: 'https://api.openai.com/v1',
      model: 'gpt-5',
      reasoning_effort: 'low',
      label: 'team key',
      has_api_key: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    const keyless = await register(ownerAdr, {
      kind: 'chat-completions',
      base_url: 'http://127.0.0.1:8080/v1',
      model: 'qwen2.5:7b',
    });
    expect(keyless.status).toBe(201);
    expect(keyless.body).toMatchObject({ has_api_key: false, reasoning_effort: null, label: null });

    const listed = await call('GET', PROVIDERS, owner);
    expect(listed.status).toBe(200);
    expect(listed.body.schema).toBe('helix.model_providers.v1');
    // Newest first: the registration a run would use comes first. Both keys are the same owner.
    expect(listed.body.providers.map((p: { provider_id: string }) => p.provider_id)).toEqual([
      keyless.body.provider_id,
      id,
    ]);

    const inspected = await call('GET', `${PROVIDERS}/${id}`, ownerAdr);
    expect(inspected.status).toBe(200);
    expect(inspected.body).toEqual(created.body);

    const deleted = await call('DELETE', `${PROVIDERS}/${keyless.body.provider_id}`, owner);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await call('GET', `${PROVIDERS}/${keyless.body.provider_id}`, owner)).status).toBe(404);
    expect((await call('DELETE', `${PROVIDERS}/${keyless.body.provider_id}`, owner)).status).toBe(404);
    expect(
      (await call('GET', PROVIDERS, owner)).body.providers.map((p: { provider_id: string }) => p.provider_id),
    ).toEqual([id]);
  });

  it("another owner's registration is not found, exactly like a missing one", async () => {
    const { body } = await register(owner, valid);
    const missing = await call('GET', `${PROVIDERS}/mp_${'A'.repeat(22)}`, otherOwner);
    const foreign = await call('GET', `${PROVIDERS}/${body.provider_id}`, otherOwner);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body.code).toBe('not_found');
    expect((await call('DELETE', `${PROVIDERS}/${body.provider_id}`, otherOwner)).status).toBe(404);
    expect((await call('GET', PROVIDERS, otherOwner)).body.providers).toEqual([]);
    // Still there for its owner after the other owner's delete.
    expect((await call('GET', `${PROVIDERS}/${body.provider_id}`, owner)).status).toBe(200);
    expect((await call('GET', `${PROVIDERS}/not-an-id`, owner)).body.code).toBe('not_found');
  });

  it('requires the provider scopes: run scopes and read-only keys cannot register', async () => {
    const runsOnly = await h.key(ALL_RUN_SCOPES);
    const readOnly = await h.key('provider.read');
    const writeOnly = await h.key('helix.model_providers.write');
    for (const [token, method, path, scope] of [
      [runsOnly, 'POST', PROVIDERS, 'helix.model_providers.write'],
      [runsOnly, 'GET', PROVIDERS, 'helix.model_providers.read'],
      [readOnly, 'POST', PROVIDERS, 'helix.model_providers.write'],
      [readOnly, 'DELETE', `${PROVIDERS}/mp_${'A'.repeat(22)}`, 'helix.model_providers.write'],
      [writeOnly, 'GET', PROVIDERS, 'helix.model_providers.read'],
    ] as const) {
      const res = await call(method, path, token, method === 'POST' ? valid : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toMatchObject({ code: 'insufficient_scope', scope, adr_code: -32001 });
      expect(res.headers.get('www-authenticate')).toContain(`error="insufficient_scope", scope="${scope}"`);
    }
    expect((await call('GET', PROVIDERS, readOnly)).status).toBe(200);
    expect((await call('GET', PROVIDERS, undefined)).status).toBe(401);
    const unknownMethod = await call('PUT', PROVIDERS, owner, valid);
    expect(unknownMethod.status).toBe(405);
    expect(unknownMethod.headers.get('allow')).toBe('POST, GET');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown field', { ...valid, organization: 'org-1' }, '(root)'],
    ['an unknown kind', { ...valid, kind: 'anthropic' }, 'kind'],
    ['the subscription kind', { ...valid, kind: 'codex-subscription' }, 'kind'],
    ['a relative URL', { ...valid, base_url: '/v1' }, 'base_url'],
    ['a file URL', { ...valid, base_url: 'file:///etc/passwd' }, 'base_url'],
    ['a URL with credentials', { ...valid, base_url: 'https://user:pw@api.openai.com/v1' }, 'base_url'],
    ['a URL with a query', { ...valid, base_url: 'https://api.openai.com/v1?x=1' }, 'base_url'],
    ['an empty key', { ...valid, api_key: '' }, 'api_key'],
    ['a key with a space', { ...valid, api_key: `${API_KEY} x` }, 'api_key'],
    ['a key over 4096 characters', { ...valid, api_key: 'k'.repeat(4097) }, 'api_key'],
    ['a key that is not a string', { ...valid, api_key: 42 }, 'api_key'],
    ['a Helix API key as the provider key', { ...valid, api_key: `hlx_${'Q'.repeat(43)}` }, 'api_key'],
    ['a credential in the label', { ...valid, label: API_KEY }, '(body)'],
    ['a credential nested under another field', { ...valid, extra: { api_key: API_KEY } }, '(body)'],
    ['no model', { kind: 'chat-completions', base_url: 'http://127.0.0.1:1/v1' }, 'model'],
  ])('refuses %s with 400 invalid_request, echoing nothing', async (_what, body, path) => {
    const res = await register(owner, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path);
    for (const part of API_KEY_PARTS) expect(res.text).not.toContain(part);
  });

  it("the stored key is what the owner's runs use: the resolver opens it for this owner only", async () => {
    const { body } = await register(owner, { ...valid, model: 'gpt-5-mini' });
    const instanceSecret = await loadInstanceSecret(h.testStore.store);
    const principal = (account: string) => ({
      kind: 'api_key' as const,
      tenantId: 'tenant-a',
      issuer: API_KEY_ISSUER,
      subject: account,
      accountId: account,
      scopes: new ScopeSet([]),
      credentialId: 'unused',
      linkedAccount: false,
    });
    const seen: ProviderSettings[] = [];
    const resolver = new OwnerModelResolver({
      store: h.testStore.store,
      secretBox: new SecretBox(decodeSecretKey(SECRET_KEY)!),
      operatorDefault: undefined,
      clientFor: (settings) => {
        seen.push(settings);
        return { provider: settings.kind, stream: () => (async function* () {})(), listModels: async () => [] };
      },
    });
    const selection = await resolver.forOwner(
      ownershipOf(principal('account-a'), instanceSecret).ownerHash,
      new AbortController().signal,
      { ownProviders: true },
    );
    expect(selection?.model).toBe('gpt-5-mini');
    expect(seen).toEqual([
      {
        kind: 'openai-responses',
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-5-mini',
        reasoningEffort: 'low',
        apiKey: API_KEY,
      },
    ]);
    expect(
      await resolver.forOwner(
        ownershipOf(principal('account-b'), instanceSecret).ownerHash,
        new AbortController().signal,
        { ownProviders: true },
      ),
    ).toBeUndefined();
    expect(body.provider_id).toMatch(/^mp_/);
  });

  // Issue 6 done-when: the key is not in the database in clear, and not in the logs.
  it('leaves no part of the API key in the database, any response, or the debug log', async () => {
    const { body } = await register(owner, { ...valid, label: 'leak check' });
    const stored = await storedBytes(h.testStore);
    // The check can see what was written: the registration's id is there in the same bytes.
    expect(stored.includes(Buffer.from(body.provider_id))).toBe(true);
    for (const part of API_KEY_PARTS) {
      expect(stored.includes(Buffer.from(part)), 'database bytes').toBe(false);
      for (const text of bodies) expect(text).not.toContain(part);
      for (const line of lines) expect(line).not.toContain(part);
    }
    expect(lines.some((line) => line.includes(PROVIDERS))).toBe(true);
    expect(lines.join('\n')).not.toContain(SECRET_KEY);
  });
});

describe('without a provider secret key', () => {
  let h: TestHelix;
  let owner: string;
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, {
      resolveHost: tableResolver(PUBLIC_DNS),
      env: {
        HELIX_MODEL_PROVIDER_ALLOWED_HOSTS: '127.0.0.1, api.example.com',
        HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: '127.0.0.1',
      },
    });
    owner = await h.key(RW);
  });
  afterAll(async () => h?.close());

  it('refuses to store an API key (503), still registers keyless servers, and still lists', async () => {
    const refused = await api(h.url, 'POST', PROVIDERS, {
      token: owner,
      body: {
        kind: 'openai-responses',
        base_url: 'https://api.example.com/v1',
        model: 'gpt-5',
        api_key: 'sk-not-stored-0123456789abcdef',
      },
    });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'provider_secrets_unavailable', status: 503 });
    expect(refused.text).not.toContain('sk-not-stored');
    const keyless = await api(h.url, 'POST', PROVIDERS, {
      token: owner,
      body: { kind: 'chat-completions', base_url: 'http://127.0.0.1:8080/v1', model: 'llama3' },
    });
    expect(keyless.status).toBe(201);
    const listed = await api(h.url, 'GET', PROVIDERS, { token: owner });
    expect(listed.status).toBe(200);
    expect(listed.body.providers).toHaveLength(1);
  });

  it('admits only the hosts in HELIX_MODEL_PROVIDER_ALLOWED_HOSTS', async () => {
    const refused = await api(h.url, 'POST', PROVIDERS, {
      token: owner,
      body: { kind: 'chat-completions', base_url: 'http://169.254.169.254/latest', model: 'm' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([
      { path: 'base_url', message: 'host is not in HELIX_MODEL_PROVIDER_ALLOWED_HOSTS' },
    ]);
    const admitted = await api(h.url, 'POST', PROVIDERS, {
      token: owner,
      body: { kind: 'chat-completions', base_url: 'https://api.example.com/v1', model: 'm' },
    });
    expect(admitted.status).toBe(201);
  });
});
