import { DENY_ALL, featuresFrom, type AccountPolicy } from '../../src/domain/accountPolicy.js';
import { createAdapterRegistry } from '../../src/domain/environmentAdapterRegistry.js';
import type { RoomDeps } from '../../src/service/rooms/deps.js';
import type { Store } from '../../src/store/port.js';

/** Active Helix accounts, as `helix accounts create` would have stored them (room members are accounts). */
export const insertActiveAccounts = async (store: Store, accountIds: readonly string[], at: number): Promise<void> => {
  for (const accountId of accountIds)
    await store.read.accounts.insert({
      accountId,
      displayName: accountId,
      status: 'active',
      passwordHash: null,
      createdAt: at,
      updatedAt: at,
    });
};

/** The room use cases' dependencies over a test store, with the account policy a test decides per account. */
export const roomTestDeps = (
  store: Store,
  instanceSecret: string,
  policy: (accountId: string) => AccountPolicy,
  now: () => number,
): RoomDeps => ({
  store,
  instanceSecret,
  policies: { forPrincipal: async (p) => policy(p.accountId), forAccount: async (id) => policy(id) },
  receiptTtlMs: 86_400_000,
  now,
  adapters: createAdapterRegistry({ fixturesEnabled: true }),
});

/** shared_live_room on for every account except the locked ones, which get nothing (the policy lock, SLR-11). */
export const roomFeatureUnlessLocked =
  (locked: ReadonlySet<string>) =>
  (accountId: string): AccountPolicy =>
    locked.has(accountId) ? DENY_ALL : { ...DENY_ALL, features: featuresFrom(['shared_live_room']) };
