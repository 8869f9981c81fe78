import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFlavours, type TestStore } from '../../test/support/stores.js';
import type { ModelError, ModelClient } from '../model/port.js';
import type { ModelProviderRecord } from '../store/port.js';
import { OwnerModelResolver, type OwnerModelResolverDeps, type ProviderSource } from './ownerModelResolver.js';
import { sealProviderKey } from './providerKeySeal.js';
import type { ProviderSettings } from './providerSettings.js';
import { SecretBox } from './secretBox.js';
import { rejectsWithModelError } from '../../test/support/modelErrors.js';

const API_KEY = 'sk-owner-0123456789abcdefghij';
const box = new SecretBox(randomBytes(32));
const signal = new AbortController().signal;

/** A factory that records what it was asked for; the "client" just names its settings. */
const recordingFactory = () => {
  const seen: ProviderSettings[] = [];
  const sources: ProviderSource[] = [];
  const clientFor = (settings: ProviderSettings, source: ProviderSource): ModelClient => {
    seen.push(settings);
    sources.push(source);
    return { provider: settings.kind, stream: () => (async function* () {})(), listModels: async () => [] };
  };
  return { seen, sources, clientFor };
};

const registration = (
  ownerHash: string,
  providerId: string,
  createdAt: number,
  apiKey: string | undefined,
  sealWith = box,
): ModelProviderRecord => {
  const row = { providerId, ownerHash, kind: 'chat-completions', baseUrl: 'http://127.0.0.1:9/v1' };
  return {
    ...row,
    model: `model-of-${providerId}`,
    reasoningEffort: 'medium',
    label: null,
    secret: apiKey === undefined ? null : sealProviderKey(sealWith, row, apiKey),
    createdAt,
  };
};

const OPERATOR: ProviderSettings = { kind: 'codex-subscription', model: 'gpt-5.1-codex', reasoningEffort: 'high' };

describe('OwnerModelResolver', () => {
  let t: TestStore;
  beforeAll(async () => {
    t = await storeFlavours()[0]!.create();
  });
  afterAll(async () => t.dispose());

  const resolver = (overrides: Partial<OwnerModelResolverDeps> = {}) => {
    const factory = recordingFactory();
    const deps = {
      store: t.store,
      secretBox: box,
      operatorDefault: OPERATOR,
      clientFor: factory.clientFor,
      ...overrides,
    };
    return { resolver: new OwnerModelResolver(deps), seen: factory.seen, sources: factory.sources };
  };

  it("uses the owner's newest registration, with its key opened at use", async () => {
    const owner = 'a'.repeat(64);
    await t.store.read.modelProviders.insert(registration(owner, 'mp_old', 1_000, 'sk-older-key-000000000000'));
    await t.store.read.modelProviders.insert(registration(owner, 'mp_new', 2_000, API_KEY));
    const { resolver: r, seen, sources } = resolver();
    const selection = await r.forOwner(owner, signal, { ownProviders: true });
    // An owner's registration goes out under the outbound policy (src/providers/ownerTransport.ts).
    expect(sources).toEqual(['owner_registration']);
    expect(selection?.model).toBe('model-of-mp_new');
    expect(selection?.reasoningEffort).toBe('medium');
    expect(selection?.client.provider).toBe('chat-completions');
    expect(seen).toEqual([
      {
        kind: 'chat-completions',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'model-of-mp_new',
        reasoningEffort: 'medium',
        apiKey: API_KEY,
      },
    ]);
  });

  it("passes over the owner's registrations when the account policy turns model_providers off", async () => {
    const owner = 'f'.repeat(64);
    await t.store.read.modelProviders.insert(registration(owner, 'mp_owned', 1_000, API_KEY));
    const { resolver: r, seen } = resolver();
    expect((await r.forOwner(owner, signal, { ownProviders: false }))?.model).toBe('gpt-5.1-codex');
    expect(seen).toEqual([OPERATOR]);
  });

  it('passes no key for a keyless registration', async () => {
    const owner = 'b'.repeat(64);
    await t.store.read.modelProviders.insert(registration(owner, 'mp_keyless', 1_000, undefined));
    const { resolver: r, seen } = resolver({ secretBox: undefined });
    expect((await r.forOwner(owner, signal, { ownProviders: true }))?.model).toBe('model-of-mp_keyless');
    expect(seen[0]).not.toHaveProperty('apiKey');
  });

  it('falls back to the operator default, and to nothing without one', async () => {
    const owner = 'c'.repeat(64);
    const withDefault = resolver();
    const selection = await withDefault.resolver.forOwner(owner, signal, { ownProviders: true });
    expect(selection?.model).toBe('gpt-5.1-codex');
    expect(selection?.reasoningEffort).toBe('high');
    expect(withDefault.seen).toEqual([OPERATOR]);
    // The operator's own choice is not subject to the owner policy.
    expect(withDefault.sources).toEqual(['operator_default']);
    expect(
      await resolver({ operatorDefault: undefined }).resolver.forOwner(owner, signal, { ownProviders: true }),
    ).toBeUndefined();
  });

  it("another owner never gets this owner's registration", async () => {
    const owner = 'd'.repeat(64);
    await t.store.read.modelProviders.insert(registration(owner, 'mp_private', 1_000, API_KEY));
    const { resolver: r, seen } = resolver();
    await r.forOwner('e'.repeat(64), signal, { ownProviders: true });
    expect(seen).toEqual([OPERATOR]);
  });

  const failure = async (promise: Promise<unknown>): Promise<ModelError> => {
    const err = await rejectsWithModelError(promise);
    expect((err as ModelError).kind).toBe('auth');
    expect((err as ModelError).details.retryable).toBe(false);
    expect((err as Error).message).not.toContain(API_KEY);
    return err as ModelError;
  };

  it('a key sealed under another operator key fails clearly instead of falling back', async () => {
    const owner = 'f'.repeat(64);
    await t.store.read.modelProviders.insert(
      registration(owner, 'mp_rotated', 1_000, API_KEY, new SecretBox(randomBytes(32))),
    );
    const { resolver: r, seen } = resolver();
    expect((await failure(r.forOwner(owner, signal, { ownProviders: true }))).message).toMatch(
      /different HELIX_PROVIDER_SECRET_KEY/,
    );
    expect(seen).toEqual([]);
    expect(
      (await failure(resolver({ secretBox: undefined }).resolver.forOwner(owner, signal, { ownProviders: true })))
        .message,
    ).toMatch(/no HELIX_PROVIDER_SECRET_KEY/);
  });

  it('a ciphertext moved to another row, or a base URL rewritten in the table, does not open', async () => {
    const owner = '1'.repeat(64);
    const original = registration(owner, 'mp_source', 1_000, API_KEY);
    await t.store.read.modelProviders.insert({
      ...registration(owner, 'mp_target', 2_000, undefined),
      secret: original.secret,
    });
    const { resolver: r } = resolver();
    expect((await failure(r.forOwner(owner, signal, { ownProviders: true }))).message).toMatch(/failed authentication/);

    const other = '2'.repeat(64);
    await t.store.read.modelProviders.insert({
      ...registration(other, 'mp_redirect', 1_000, API_KEY),
      baseUrl: 'https://attacker.example/v1',
    });
    expect((await failure(r.forOwner(other, signal, { ownProviders: true }))).message).toMatch(/failed authentication/);
  });

  it('honours an aborted signal before touching the store', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      resolver().resolver.forOwner('a'.repeat(64), controller.signal, { ownProviders: true }),
    ).rejects.toThrow();
  });
});
