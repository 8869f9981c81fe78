import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProviderRecord } from '../src/store/port.js';
import { storeFlavours, type TestStore } from './support/stores.js';

const OWNER_A = 'a'.repeat(64);
const OWNER_B = 'b'.repeat(64);

const provider = (providerId: string, ownerHash: string, createdAt: number, keyed = true): ModelProviderRecord => ({
  providerId,
  ownerHash,
  kind: 'chat-completions',
  baseUrl: 'http://127.0.0.1:8080/v1',
  model: 'qwen2.5-7b-instruct',
  reasoningEffort: keyed ? 'high' : null,
  label: keyed ? 'lab server' : null,
  secret: keyed
    ? { ciphertext: 'Y2lwaGVy', iv: 'aXZpdml2aXZpdml2', tag: 'dGFndGFndGFndGFndGFnIQ==', keyId: '0123456789abcdef' }
    : null,
  createdAt,
});

describe.each(storeFlavours())('model provider repository on $name', (flavour) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await flavour.create();
  });
  afterAll(async () => t.dispose());

  it('round-trips a keyed and a keyless registration exactly, including a BIGINT instant', async () => {
    const keyed = provider('mp_roundtrip_keyed', OWNER_A, 4_102_444_800_000);
    const keyless = provider('mp_roundtrip_keyless', OWNER_A, 1_700_000_000_000, false);
    await t.store.read.modelProviders.insert(keyed);
    await t.store.transaction((uow) => uow.modelProviders.insert(keyless));
    expect(await t.store.read.modelProviders.getForOwner(OWNER_A, keyed.providerId)).toEqual(keyed);
    expect(await t.store.read.modelProviders.getForOwner(OWNER_A, keyless.providerId)).toEqual(keyless);
  });

  it('scopes every read and delete to the owner', async () => {
    const mine = provider('mp_scoped_b', OWNER_B, 1_700_000_000_001);
    await t.store.read.modelProviders.insert(mine);
    expect(await t.store.read.modelProviders.getForOwner(OWNER_A, mine.providerId)).toBeUndefined();
    expect(await t.store.read.modelProviders.deleteForOwner(OWNER_A, mine.providerId)).toBe(false);
    expect((await t.store.read.modelProviders.listByOwner(OWNER_A)).map((p) => p.providerId)).not.toContain(
      mine.providerId,
    );
    expect(await t.store.read.modelProviders.deleteForOwner(OWNER_B, mine.providerId)).toBe(true);
    expect(await t.store.read.modelProviders.getForOwner(OWNER_B, mine.providerId)).toBeUndefined();
    expect(await t.store.read.modelProviders.deleteForOwner(OWNER_B, mine.providerId)).toBe(false);
  });

  it('lists newest first and picks the newest registration, ties broken by id', async () => {
    const owner = 'c'.repeat(64);
    expect(await t.store.read.modelProviders.newestForOwner(owner)).toBeUndefined();
    await t.store.read.modelProviders.insert(provider('mp_order_1', owner, 1_000));
    await t.store.read.modelProviders.insert(provider('mp_order_3', owner, 3_000));
    await t.store.read.modelProviders.insert(provider('mp_order_2', owner, 2_000));
    await t.store.read.modelProviders.insert(provider('mp_order_3b', owner, 3_000));
    expect((await t.store.read.modelProviders.listByOwner(owner)).map((p) => p.providerId)).toEqual([
      'mp_order_3b',
      'mp_order_3',
      'mp_order_2',
      'mp_order_1',
    ]);
    expect((await t.store.read.modelProviders.newestForOwner(owner))?.providerId).toBe('mp_order_3b');
    await t.store.read.modelProviders.deleteForOwner(owner, 'mp_order_3b');
    expect((await t.store.read.modelProviders.newestForOwner(owner))?.providerId).toBe('mp_order_3');
  });

  it('refuses a duplicate provider id', async () => {
    const first = provider('mp_duplicate', OWNER_A, 1);
    await t.store.read.modelProviders.insert(first);
    await expect(t.store.read.modelProviders.insert({ ...first, ownerHash: OWNER_B })).rejects.toThrow();
  });
});
