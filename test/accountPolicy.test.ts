import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountPolicies } from '../src/accounts/accountPolicies.js';
import { changeAccountPolicy } from '../src/service/accounts/changeAccountPolicy.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { policyChangeFrom } from '../src/cli/accountPolicy.js';
import { featuresFrom, type PolicyChange } from '../src/domain/accountPolicy.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { tableResolver, PUBLIC_DNS } from './support/fakeDns.js';
import { runCli } from './support/processes.js';
import { PRODUCTION_ENV, VIA_HTTPS_PROXY } from './support/productionEnv.js';
import { accountDeps } from './support/accounts.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const RUNS = '/api/v1/agent-runs';
const SCOPES =
  'helix.agent_runs.read helix.agent_runs.write helix.data.research_library.read helix.model_providers.write';
const ENV = {
  HELIX_AGENT_DATABASE_SCOPES: 'research_library',
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
};
const PROVIDER = { kind: 'chat-completions', base_url: 'https://api.example.com/v1', model: 'm' };
const DEFAULTS = { features: featuresFrom(['model_providers']), defaultCapability: 'admit' as const, capabilities: {} };

const startWithLibrary = (h: TestHelix, token: string) =>
  api(h.url, 'POST', RUNS, {
    token,
    idempotencyKey: idemKey(),
    body: { objective: 'What is in the library?', database_scope: ['research_library'] },
  });

// Issue 11, items 4 and 5: hlx_ keys obey their account's state and policy; the policy is real.
describe.each(storeFlavours())('account state and policy on $name', (flavour) => {
  let h: TestHelix;
  let accountId: string;
  let token: string;
  let changePolicy: (change: PolicyChange) => Promise<unknown>;
  beforeAll(async () => {
    h = await startTestHelix(flavour, { env: ENV, resolveHost: tableResolver(PUBLIC_DNS) });
    const deps = await accountDeps(h.testStore.store);
    accountId = (await createAccount(deps, { displayName: 'Operator Bot' })).accountId;
    token = await h.key(SCOPES, 'tenant-a', accountId);
    changePolicy = (change) => changeAccountPolicy(deps, DEFAULTS, accountId, change);
  });
  afterAll(() => h.close());
  afterEach(async () => {
    await h.testStore.store.read.accounts.setStatus(accountId, 'active', Date.now());
    await changePolicy({
      defaultCapability: null,
      capabilities: { 'research-library.search': null },
      features: { model_providers: null },
    });
  });

  it("disabling the key's account stops the key at the next request; enabling it restores it", async () => {
    expect((await startWithLibrary(h, token)).status).toBe(201);
    await h.testStore.store.read.accounts.setStatus(accountId, 'disabled', Date.now());
    const refused = await startWithLibrary(h, token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'account_not_linked', adr_code: -32001 });
    await h.testStore.store.read.accounts.setStatus(accountId, 'active', Date.now());
    expect((await startWithLibrary(h, token)).status).toBe(201);
  });

  it('a denied capability refuses the scope at start, and at the next continuation of a run started before', async () => {
    const started = await startWithLibrary(h, token);
    expect(started.status).toBe(201);
    await changePolicy({ capabilities: { 'research-library.search': 'deny' } });
    const refused = await startWithLibrary(h, token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'scope_not_admitted', scope: 'research_library' });
    const next = await api(h.url, 'POST', `${RUNS}/${started.body.run_id}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 1, instruction: 'go on' },
    });
    expect(next.status).toBe(403);
    expect(next.body.code).toBe('scope_not_admitted');
    // Nothing was consumed: the run is where it was.
    expect((await api(h.url, 'GET', `${RUNS}/${started.body.run_id}`, { token })).body.version).toBe(1);
  });

  it('a closed default admits a run without data scopes but no data scope', async () => {
    await changePolicy({ defaultCapability: 'deny' });
    expect((await startWithLibrary(h, token)).body.code).toBe('scope_not_admitted');
    expect(
      (await api(h.url, 'POST', RUNS, { token, idempotencyKey: idemKey(), body: { objective: 'no data' } })).status,
    ).toBe(201);
    await changePolicy({
      capabilities: { 'research-library.search': 'admit', 'research-library.read_document': 'admit' },
    });
    expect((await startWithLibrary(h, token)).status).toBe(201);
  });

  it('registering a model provider needs the model_providers feature', async () => {
    await changePolicy({ features: { model_providers: false } });
    const refused = await api(h.url, 'POST', '/api/v1/model-providers', {
      token,
      idempotencyKey: idemKey(),
      body: PROVIDER,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'feature_not_enabled', feature: 'model_providers', adr_code: -32002 });
    await changePolicy({ features: { model_providers: null } });
    expect(
      (await api(h.url, 'POST', '/api/v1/model-providers', { token, idempotencyKey: idemKey(), body: PROVIDER }))
        .status,
    ).toBe(201);
  });

  it('a stored policy that cannot be read denies everything rather than nothing', async () => {
    await h.testStore.store.read.accounts.setPolicyOverrides(
      accountId,
      '{"capabilities":{"research-library.search":"perhaps"}}',
      Date.now(),
    );
    expect((await startWithLibrary(h, token)).body.code).toBe('scope_not_admitted');
  });
});

describe('hlx_ keys in production', () => {
  const PRODUCTION = { ...ENV, ...PRODUCTION_ENV, TRUST_PROXY: '127.0.0.1' };
  const https = VIA_HTTPS_PROXY;
  let h: TestHelix;
  beforeAll(async () => {
    h = await startTestHelix(storeFlavours()[0]!, { env: PRODUCTION });
  });
  afterAll(() => h.close());

  it('admits a key only when it belongs to an active Helix account', async () => {
    const freeForm = await h.key(SCOPES, 'tenant-a', 'not-an-account');
    const refused = await api(h.url, 'POST', RUNS, {
      token: freeForm,
      idempotencyKey: idemKey(),
      body: { objective: 'x' },
      headers: https,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('account_not_linked');
    const account = await createAccount(await accountDeps(h.testStore.store), { displayName: 'Service' });
    const linked = await h.key(SCOPES, 'tenant-a', account.accountId);
    expect(
      (
        await api(h.url, 'POST', RUNS, {
          token: linked,
          idempotencyKey: idemKey(),
          body: { objective: 'x' },
          headers: https,
        })
      ).status,
    ).toBe(201);
  });
});

describe('deployment default and the CLI', () => {
  it('HELIX_ACCOUNT_DEFAULT_CAPABILITIES=deny closes a free-form dev key too', async () => {
    const h = await startTestHelix(storeFlavours()[0]!, {
      env: { ...ENV, HELIX_ACCOUNT_DEFAULT_CAPABILITIES: 'deny' },
    });
    try {
      const token = await h.key(SCOPES);
      expect((await startWithLibrary(h, token)).body.code).toBe('scope_not_admitted');
    } finally {
      await h.close();
    }
  });

  it('helix accounts policy set/show and enable/disable round-trip, with clear errors for bad input', {
    timeout: ceilingFor(6),
  }, async () => {
    const t = await storeFlavours()[0]!.create();
    try {
      const account = await createAccount(await accountDeps(t.store), { displayName: 'Alice' });
      const db = ['--database', t.location!];
      const set = await runCli([
        'accounts',
        'policy',
        'set',
        '--account',
        account.accountId,
        '--feature',
        'developer=on',
        '--capability',
        'research-library.search=deny',
        ...db,
      ]);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain('feature developer\ton\t(set)');
      expect(set.stdout).toContain('feature model_providers\ton\t(default)');
      expect(set.stdout).toContain('capability research-library.search\tdeny\t(set)');
      const show = await runCli(['accounts', 'policy', 'show', '--account', account.accountId, ...db]);
      expect(show.stdout).toBe(set.stdout);
      expect((await new AccountPolicies(t.store, DEFAULTS).forAccount(account.accountId)).features.developer).toBe(
        true,
      );

      const bad = await runCli([
        'accounts',
        'policy',
        'set',
        '--account',
        account.accountId,
        '--feature',
        'flying=on',
        ...db,
      ]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/unknown feature flying/);
      for (const [options, message] of [
        [{ feature: ['developer=maybe'], capability: [] }, /on, off or default/],
        [{ feature: ['developer'], capability: [] }, /NAME=VALUE/],
        [{ feature: [], capability: ['research-library.search=perhaps'] }, /admit or deny/],
        [{ feature: [], capability: [], defaultCapability: 'sometimes' }, /admit or deny/],
      ] as const) {
        expect(() => policyChangeFrom(options)).toThrow(message);
      }
      const unknown = await runCli(['accounts', 'policy', 'show', '--account', 'acct_nobody', ...db]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('no account acct_nobody');

      expect((await runCli(['accounts', 'disable', '--account', account.accountId, ...db])).stdout).toBe(
        `disabled ${account.accountId}\n`,
      );
      expect((await t.store.read.accounts.get(account.accountId))?.status).toBe('disabled');
      expect((await runCli(['accounts', 'enable', '--account', account.accountId, ...db])).stdout).toBe(
        `enabled ${account.accountId}\n`,
      );
      expect((await t.store.read.accounts.get(account.accountId))?.status).toBe('active');
    } finally {
      await t.dispose();
    }
  });
});
