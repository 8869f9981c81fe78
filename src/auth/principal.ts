import { canonicalJson, hmacHex } from '../domain/hashing.js';
import type { ScopeSet } from '../domain/scopes.js';
import { dataSubjectKey, tenantHash, tenantRefOf } from '../domain/identityHashes.js';

export const PRINCIPAL_KINDS = ['api_key', 'local_jwt', 'oauth_jwt'] as const;
export type PrincipalKind = (typeof PRINCIPAL_KINDS)[number];

/** A verified caller. Every field is server-derived; none comes from an unsigned header. */
export interface Principal {
  readonly kind: PrincipalKind;
  readonly tenantId: string;
  readonly issuer: string;
  readonly subject: string;
  readonly accountId: string;
  readonly scopes: ScopeSet;
  /** A non-secret identifier of the credential (API key id or token `jti`), for rate limits and audit. */
  readonly credentialId: string;
  /**
   * The OAuth client a token was issued to (RFC 9068 §2.2 `client_id`, else OIDC `azp`), when the
   * token names one: stable across the client's tokens, unlike `jti` (src/auth/agentExecutor.ts).
   */
  readonly clientId?: string;
  /**
   * True when `accountId` names an active Helix account, whose policy then applies. Always true for
   * OAuth principals; for an `hlx_` key or a local JWT only when its account exists (outside
   * production a key may name a free-form account, which gets the deployment default policy).
   */
  readonly linkedAccount: boolean;
}

/** Opaque, keyed hashes of the owner tuple: stable per installation, useless outside it. */
export interface Ownership {
  readonly ownerHash: string;
  readonly ownerRef: string;
  readonly tenantRef: string;
  readonly accountRef: string;
  /** The data subject (account) the owner belongs to; registered with the owner's first write. */
  readonly subjectKey: string;
}

export type OwnerTuple = Pick<Principal, 'tenantId' | 'issuer' | 'subject' | 'accountId'>;

export const ownerHashOf = (owner: OwnerTuple, instanceSecret: string): string =>
  hmacHex(instanceSecret, canonicalJson(['owner', owner.tenantId, owner.issuer, owner.subject, owner.accountId]));

/**
 * Four keyed hashes per principal, computed once per principal object: a principal from the
 * verified-credential cache (credentialCache.ts) is the same object on every request it serves.
 */
const ownerships = new WeakMap<Principal, { readonly instanceSecret: string; readonly ownership: Ownership }>();

export const ownershipOf = (principal: Principal, instanceSecret: string): Ownership => {
  const known = ownerships.get(principal);
  if (known?.instanceSecret === instanceSecret) return known.ownership;
  const ownerHash = ownerHashOf(principal, instanceSecret);
  const ownership = {
    ownerHash,
    subjectKey: dataSubjectKey(instanceSecret, principal.accountId),
    ownerRef: `owner:sha256:${ownerHash.slice(0, 32)}`,
    tenantRef: tenantRefOf(tenantHash(instanceSecret, principal.tenantId)),
    accountRef: `account:sha256:${hmacHex(instanceSecret, canonicalJson(['account', principal.tenantId, principal.accountId])).slice(0, 32)}`,
  };
  ownerships.set(principal, { instanceSecret, ownership });
  return ownership;
};
