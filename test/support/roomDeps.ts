import { AccountPolicies } from '../../src/accounts/accountPolicies.js';
import { loadInstanceSecret } from '../../src/auth/instanceSecret.js';
import type { Principal } from '../../src/auth/principal.js';
import { DENY_ALL, featuresFrom, type AccountPolicy } from '../../src/domain/accountPolicy.js';
import { HelixError } from '../../src/domain/errors.js';
import { ScopeSet } from '../../src/domain/scopes.js';
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

/** The room use cases' dependencies beside a running server: its store, its instance secret, the stored account policies. */
export const serverRoomDeps = async (store: Store, defaults: AccountPolicy): Promise<RoomDeps> => ({
  store,
  instanceSecret: await loadInstanceSecret(store),
  policies: new AccountPolicies(store, defaults),
  receiptTtlMs: 86_400_000,
  adapters: createAdapterRegistry({ fixturesEnabled: false }),
  now: Date.now,
});

/** shared_live_room on for every account except the locked ones, which get nothing (the policy lock, SLR-11). */
export const roomFeatureUnlessLocked =
  (locked: ReadonlySet<string>) =>
  (accountId: string): AccountPolicy =>
    locked.has(accountId) ? DENY_ALL : { ...DENY_ALL, features: featuresFrom(['shared_live_room']) };

/** An OAuth principal linked to the account, as the room use cases receive it. */
export const roomPrincipal = (accountId: string, scopes: string, tenantId = 'acme'): Principal => ({
  kind: 'oauth_jwt',
  tenantId,
  issuer: 'https://issuer.test/',
  subject: `sub-${accountId}`,
  accountId,
  scopes: ScopeSet.parse(scopes),
  credentialId: `jti-${accountId}`,
  linkedAccount: true,
});

/** The HelixError a call fails with, as {code, status, ...details}; undefined when it succeeds. */
export const refusal = async (call: Promise<unknown>) => {
  try {
    await call;
    return undefined;
  } catch (err) {
    if (!(err instanceof HelixError)) throw err;
    return { code: err.code, status: err.status, ...err.details };
  }
};
