import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { PINNED_CODEX_ENDPOINTS } from '../model/codex/endpoints.js';

const dir = mkdtempSync(join(tmpdir(), 'helix-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PRODUCTION = {
  NODE_ENV: 'production',
  HELIX_AGENT_OAUTH_ISSUER: 'https://login.example.com',
  HELIX_AGENT_OAUTH_AUDIENCE: 'https://helix.example/mcp',
  HELIX_AGENT_OAUTH_JWKS_URL: 'https://login.example.com/jwks',
  HELIX_AGENT_OAUTH_PROVIDER: 'example',
  HELIX_AGENT_OAUTH_ALGORITHMS: 'RS256',
};

const fileWith = (name: string, contents: string, mode: number): string => {
  const path = join(dir, name);
  writeFileSync(path, contents);
  chmodSync(path, mode);
  return path;
};

/** The ConfigError message, checked never to contain the secret that was configured. */
const refusal = (env: Record<string, string>, secret?: string): string => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    if (secret !== undefined) expect((err as Error).message).not.toContain(secret);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('model provider configuration', () => {
  it('defaults to no operator provider, 12 tool calls, no secret key, any host at a public address', () => {
    const { model } = loadConfig({});
    expect(model).toMatchObject({ defaultProvider: undefined, maxToolCalls: 12, secretBox: undefined });
    expect(model.ownerProviderPolicy).toEqual({ production: false, allowedHosts: undefined, allowedCidrs: [] });
    expect(loadConfig(PRODUCTION).model.ownerProviderPolicy.production).toBe(true);
  });

  it('parses each provider kind with what its protocol needs', () => {
    expect(
      loadConfig({ HELIX_MODEL_PROVIDER: 'openai-responses', HELIX_MODEL: 'gpt-5', HELIX_MODEL_API_KEY: 'sk-x' }).model
        .defaultProvider,
    ).toEqual({
      kind: 'openai-responses',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: 'gpt-5',
    });
    expect(
      loadConfig({
        HELIX_MODEL_PROVIDER: 'chat-completions',
        HELIX_MODEL: 'qwen',
        HELIX_MODEL_BASE_URL: 'http://127.0.0.1:8080/v1/',
        HELIX_MODEL_REASONING_EFFORT: 'low',
      }).model.defaultProvider,
    ).toEqual({ kind: 'chat-completions', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen', reasoningEffort: 'low' });
    expect(
      loadConfig({ HELIX_MODEL_PROVIDER: 'codex-subscription', HELIX_MODEL: 'gpt-5.1-codex' }).model.defaultProvider,
    ).toEqual({
      kind: 'codex-subscription',
      model: 'gpt-5.1-codex',
    });
    expect(loadConfig({ HELIX_MODEL_MAX_TOOL_CALLS: '64' }).model.maxToolCalls).toBe(64);
  });

  it.each<[string, Record<string, string>, RegExp]>([
    ['an unknown kind', { HELIX_MODEL_PROVIDER: 'anthropic', HELIX_MODEL: 'm' }, /HELIX_MODEL_PROVIDER must be one of/],
    [
      'a provider without a model',
      { HELIX_MODEL_PROVIDER: 'codex-subscription' },
      /HELIX_MODEL \(the model name\) is required/,
    ],
    [
      'openai-responses without a key',
      { HELIX_MODEL_PROVIDER: 'openai-responses', HELIX_MODEL: 'm' },
      /HELIX_MODEL_API_KEY/,
    ],
    [
      'chat-completions without a base URL',
      { HELIX_MODEL_PROVIDER: 'chat-completions', HELIX_MODEL: 'm' },
      /HELIX_MODEL_BASE_URL is required/,
    ],
    [
      'codex-subscription with a key',
      { HELIX_MODEL_PROVIDER: 'codex-subscription', HELIX_MODEL: 'm', HELIX_MODEL_API_KEY: 'sk-x' },
      /not used with/,
    ],
    [
      'a base URL with credentials',
      { HELIX_MODEL_PROVIDER: 'chat-completions', HELIX_MODEL: 'm', HELIX_MODEL_BASE_URL: 'http://u:p@h/v1' },
      /HELIX_MODEL_BASE_URL must not carry credentials/,
    ],
    [
      'an unknown effort',
      { HELIX_MODEL_PROVIDER: 'codex-subscription', HELIX_MODEL: 'm', HELIX_MODEL_REASONING_EFFORT: 'max' },
      /HELIX_MODEL_REASONING_EFFORT/,
    ],
    [
      'too many tool calls',
      { HELIX_MODEL_MAX_TOOL_CALLS: '65' },
      /HELIX_MODEL_MAX_TOOL_CALLS must be between 1 and 64/,
    ],
    ['zero tool calls', { HELIX_MODEL_MAX_TOOL_CALLS: '0' }, /HELIX_MODEL_MAX_TOOL_CALLS/],
  ])('refuses %s naming the variable', (_what, env, message) => {
    expect(refusal(env)).toMatch(message);
  });

  it('reads the provider secret key inline or from a file, and gives the same key id for the same key', () => {
    const key = randomBytes(32).toString('base64');
    const inline = loadConfig({ HELIX_PROVIDER_SECRET_KEY: key }).model.secretBox;
    const fromFile = loadConfig({ HELIX_PROVIDER_SECRET_KEY_FILE: fileWith('key', `${key}\n`, 0o600) }).model.secretBox;
    expect(inline?.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(fromFile?.keyId).toBe(inline?.keyId);
    expect(
      loadConfig({ HELIX_PROVIDER_SECRET_KEY: randomBytes(32).toString('base64') }).model.secretBox?.keyId,
    ).not.toBe(inline?.keyId);
  });

  it('stops start-up on a key of the wrong length or encoding, without echoing it', () => {
    const short = randomBytes(16).toString('base64');
    expect(refusal({ HELIX_PROVIDER_SECRET_KEY: short }, short)).toMatch(
      /HELIX_PROVIDER_SECRET_KEY must be the base64 of exactly 32/,
    );
    const hex = randomBytes(32).toString('hex');
    expect(refusal({ HELIX_PROVIDER_SECRET_KEY: hex }, hex)).toMatch(/HELIX_PROVIDER_SECRET_KEY/);
    const key = randomBytes(32).toString('base64');
    expect(
      refusal({ HELIX_PROVIDER_SECRET_KEY: key, HELIX_PROVIDER_SECRET_KEY_FILE: fileWith('both', key, 0o600) }, key),
    ).toMatch(/not both/);
    expect(refusal({ HELIX_PROVIDER_SECRET_KEY_FILE: join(dir, 'missing') })).toMatch(
      /HELIX_PROVIDER_SECRET_KEY_FILE names a file that cannot be read/,
    );
  });

  it('in production refuses a key file others can read, and accepts a private one', () => {
    const key = randomBytes(32).toString('base64');
    const shared = fileWith('shared', key, 0o644);
    expect(refusal({ ...PRODUCTION, HELIX_PROVIDER_SECRET_KEY_FILE: shared }, key)).toMatch(
      /HELIX_PROVIDER_SECRET_KEY_FILE must not be accessible by group or others/,
    );
    expect(loadConfig({ HELIX_PROVIDER_SECRET_KEY_FILE: shared }).model.secretBox).toBeDefined();
    expect(
      loadConfig({ ...PRODUCTION, HELIX_PROVIDER_SECRET_KEY_FILE: fileWith('private', key, 0o600) }).model.secretBox,
    ).toBeDefined();
    const apiKeyFile = fileWith('api', 'sk-file-secret', 0o640);
    const env = {
      ...PRODUCTION,
      HELIX_MODEL_PROVIDER: 'openai-responses',
      HELIX_MODEL: 'm',
      HELIX_MODEL_API_KEY_FILE: apiKeyFile,
    };
    expect(refusal(env, 'sk-file-secret')).toMatch(/HELIX_MODEL_API_KEY_FILE must not be accessible/);
    chmodSync(apiKeyFile, 0o600);
    expect(loadConfig(env).model.defaultProvider).toMatchObject({ apiKey: 'sk-file-secret' });
  });

  it('normalizes the provider host allow-list', () => {
    const env = {
      HELIX_MODEL_PROVIDER_ALLOWED_HOSTS: 'API.openai.com:443, 127.0.0.1',
      HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: '127.0.0.1',
    };
    expect(loadConfig(env).model.ownerProviderPolicy.allowedHosts).toEqual(new Set(['api.openai.com', '127.0.0.1']));
  });

  it('reads the admitted ranges, IPv4 and IPv6, a bare address as a one-address range', () => {
    const { allowedCidrs } = loadConfig({
      HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: ' 10.0.0.0/8, fd00::/8 ,127.0.0.1, ::ffff:192.168.0.0/112',
    }).model.ownerProviderPolicy;
    expect(allowedCidrs).toEqual([
      { version: 4, base: 0x0a000000n, prefix: 8 },
      { version: 6, base: 0xfd00n << 112n, prefix: 8 },
      { version: 4, base: 0x7f000001n, prefix: 32 },
      { version: 4, base: 0xc0a80000n, prefix: 16 },
    ]);
  });

  it.each([
    ['a hostname', 'models.internal'],
    ['host bits set', '10.0.0.1/8'],
    ['a prefix too long', '10.0.0.0/33'],
    ['a non-numeric prefix', '10.0.0.0/x'],
    ['an octal-looking address', '010.0.0.0/8'],
    ['two slashes', '10.0.0.0/8/8'],
  ])('refuses an admitted range that is %s, naming the variable', (_what, entry) => {
    expect(refusal({ HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: entry })).toMatch(
      /HELIX_MODEL_PROVIDER_ALLOWED_CIDRS entries must be/,
    );
  });

  it('refuses to start when the host allow-list names a non-public address no admitted range covers', () => {
    for (const host of ['127.0.0.1', '[::1]:8080', 'localhost', '169.254.169.254']) {
      expect(refusal({ HELIX_MODEL_PROVIDER_ALLOWED_HOSTS: `api.openai.com, ${host}` })).toMatch(
        /HELIX_MODEL_PROVIDER_ALLOWED_HOSTS lists .*HELIX_MODEL_PROVIDER_ALLOWED_CIDRS/,
      );
    }
    expect(
      loadConfig({ HELIX_MODEL_PROVIDER_ALLOWED_HOSTS: 'localhost, [::1]', HELIX_MODEL_PROVIDER_ALLOWED_CIDRS: '::1' })
        .model.ownerProviderPolicy.allowedHosts,
    ).toEqual(new Set(['localhost', '[::1]']));
    // A hostname's addresses are only known when it is resolved: that is the registration's business.
    expect(
      loadConfig({ HELIX_MODEL_PROVIDER_ALLOWED_HOSTS: 'models.internal' }).model.ownerProviderPolicy.allowedHosts,
    ).toEqual(new Set(['models.internal']));
  });

  it('keeps the Codex subscription on its pinned origins unless a loopback test origin is named outside production', () => {
    expect(loadConfig({ HELIX_HOME: '/srv/helix' }).model.codex).toEqual({
      home: '/srv/helix',
      ownerKey: 'local',
      endpoints: PINNED_CODEX_ENDPOINTS,
    });
    const local = loadConfig({ HELIX_CODEX_TEST_ORIGIN: 'http://127.0.0.1:4455', HELIX_CODEX_OWNER: 'ops' }).model
      .codex;
    expect(local.endpoints).toEqual({ issuer: 'http://127.0.0.1:4455', api: 'http://127.0.0.1:4455' });
    expect(local.ownerKey).toBe('ops');
    expect(refusal({ HELIX_CODEX_TEST_ORIGIN: 'http://evil.example.com' })).toMatch(/loopback/);
    expect(refusal({ HELIX_CODEX_TEST_ORIGIN: 'https://127.0.0.1:4455' })).toMatch(/loopback/);
    expect(refusal({ ...PRODUCTION, HELIX_CODEX_TEST_ORIGIN: 'http://127.0.0.1:4455' })).toMatch(
      /refused in production/,
    );
    expect(refusal({ HELIX_CODEX_OWNER: '../etc' })).toMatch(/HELIX_CODEX_OWNER/);
  });
});
