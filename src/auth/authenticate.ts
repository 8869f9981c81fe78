import { decodeProtectedHeader } from 'jose';
import { subjectHash, tenantHash } from '../domain/identityHashes.js';
import { HelixError } from '../domain/errors.js';
import { ScopeSet } from '../domain/scopes.js';
import type { ApiKeyRecord, Store } from '../store/port.js';
import { findActiveApiKeyByHash, hashApiKey, isWellFormedApiKey, looksLikeApiKey } from './apiKeys.js';
import type { CredentialCache } from './credentialCache.js';
import { verifyLocalJwt, type LocalJwtConfig } from './localJwt.js';
import type { OAuthVerifier, VerifiedAccessToken } from './oauthJwt.js';
import type { Principal } from './principal.js';
import { signedClientOf, TENANT_HEADERS } from './tenantClaims.js';

/** Issuer recorded for principals authenticated by an `hlx_` key. */
export const API_KEY_ISSUER = 'urn:helix:api-key';

/**
 * What an active `hlx_` key authenticates as: its own tenant, account and scopes. Its owner tuple
 * is exactly (tenant, API_KEY_ISSUER, account, account), so a key row alone names the owner.
 */
export const apiKeyPrincipal = (key: ApiKeyRecord): Principal => ({
  kind: 'api_key',
  tenantId: key.tenantId,
  issuer: API_KEY_ISSUER,
  subject: key.accountId,
  accountId: key.accountId,
  scopes: new ScopeSet(key.scopes),
  credentialId: key.keyId,
  linkedAccount: false,
});

export interface AuthConfig {
  /** Present only when HELIX_AGENT_ALLOW_LOCAL_HS256=1 outside production. */
  readonly localJwt: LocalJwtConfig | undefined;
  /** The production verifier and the provider alias its subjects are linked under. */
  readonly oauth: { readonly verify: OAuthVerifier; readonly provider: string } | undefined;
  /** Keys the tenant and subject hashes bindings are looked up by. */
  readonly instanceSecret: string;
  /**
   * Production: an `hlx_` key (or local JWT) is admitted only when its account is an active Helix
   * account, exactly like an OAuth principal. Outside production a free-form account id is allowed.
   */
  readonly requireLinkedAccounts: boolean;
}

/** What the HTTP layer extracts from a request for authentication; nothing else is consulted. */
export interface Credentials {
  readonly authorization: string | undefined;
  /** True when the query string carries `access_token`: RFC 6750 §2.3 is not supported here. */
  readonly queryToken: boolean;
  /** How many Authorization headers arrived; more than one is two credentials, never "the first". */
  readonly authorizationHeaders?: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

/**
 * Bearer -> principal, in one place. Every failure is an opaque `invalid_token` so an unknown key,
 * a revoked key, a bad signature and an expired token are indistinguishable to the caller.
 */
export class Authenticator {
  constructor(
    private readonly store: Store,
    private readonly config: AuthConfig,
    private readonly now: () => number,
    /** Verified `hlx_` keys (credentialCache.ts); OAuth and local JWTs are verified on every request. */
    private readonly cache?: CredentialCache,
  ) {}

  async authenticate(credentials: Credentials): Promise<Principal> {
    if (
      (credentials.authorization !== undefined && credentials.queryToken) ||
      (credentials.authorizationHeaders ?? 0) > 1
    ) {
      throw new HelixError('multiple_credentials');
    }
    if (credentials.authorization === undefined) throw new HelixError('unauthorized');
    const match = BEARER.exec(credentials.authorization.trim());
    if (match?.[1] === undefined) throw new HelixError('invalid_token');
    const principal = await this.verify(match[1]);
    if (principal === undefined) throw new HelixError('invalid_token');
    assertTenantHeaders(credentials.headers, principal.tenantId);
    return principal;
  }

  private async verify(token: string): Promise<Principal | undefined> {
    if (looksLikeApiKey(token)) return this.verifyApiKey(token);
    const algorithm = headerAlgorithm(token);
    if (algorithm === 'HS256' && this.config.localJwt !== undefined) {
      const principal = await verifyLocalJwt(token, this.config.localJwt, this.now());
      return principal === undefined ? undefined : this.withAccountState(principal);
    }
    if (this.config.oauth !== undefined && algorithm !== undefined) {
      return this.admitLinked(await this.config.oauth.verify(token, this.now()), this.config.oauth.provider);
    }
    return undefined;
  }

  /** An active key of an admitted account, from the cache or from the store (and then cached). */
  private async verifyApiKey(token: string): Promise<Principal | undefined> {
    if (!isWellFormedApiKey(token)) return undefined;
    const keyHash = hashApiKey(token);
    // One cheap read: another process (the CLI) may have revoked a key in this SQLite file.
    if (this.cache?.enabled === true) this.cache.noteWritesElsewhere(await this.store.writesElsewhere());
    const cached = this.cache?.get(keyHash);
    if (cached !== undefined) return cached;
    const generation = this.cache?.begin() ?? 0;
    const key = await findActiveApiKeyByHash(this.store, keyHash);
    if (key === undefined) return undefined;
    const principal = await this.withAccountState(apiKeyPrincipal(key));
    this.cache?.set(keyHash, principal, generation);
    return principal;
  }

  /**
   * Keys and local JWTs name their account directly. When it is a Helix account, its state applies
   * on every request, as for OAuth: a disabled account's keys stop working at once. An account id
   * that is no Helix account is refused in production and admitted (default policy) elsewhere.
   */
  private async withAccountState(principal: Principal): Promise<Principal> {
    const account = await this.store.read.accounts.get(principal.accountId);
    if (account === undefined) {
      if (this.config.requireLinkedAccounts) throw new HelixError('account_not_linked');
      return principal;
    }
    if (account.status !== 'active') throw new HelixError('account_not_linked');
    return { ...principal, linkedAccount: true };
  }

  /**
   * A verified token is admitted only through an existing link: the provider subject must point to
   * an active Helix account, and that account must hold an active binding for this exact issuer,
   * signed tenant, provider and subject. Nothing is created from claims.
   */
  private async admitLinked(token: VerifiedAccessToken, provider: string): Promise<Principal> {
    const secret = this.config.instanceSecret;
    const subject = subjectHash(secret, provider, token.subject);
    const account = await this.store.read.accounts.findLinkedAccount(provider, subject);
    if (account === undefined || account.status !== 'active') throw new HelixError('account_not_linked');
    const binding = await this.store.read.bindings.findActive({
      issuer: token.issuer,
      tenantHash: tenantHash(secret, token.tenantId),
      provider,
      subjectHash: subject,
    });
    if (binding === undefined || binding.accountId !== account.accountId) throw new HelixError('account_not_linked');
    const scopeClaim = token.payload.scope ?? token.payload.scp;
    return {
      kind: 'oauth_jwt',
      tenantId: token.tenantId,
      issuer: token.issuer,
      subject: token.subject,
      accountId: account.accountId,
      scopes:
        typeof scopeClaim === 'string'
          ? ScopeSet.parse(scopeClaim)
          : new ScopeSet(Array.isArray(scopeClaim) ? scopeClaim.filter((s): s is string => typeof s === 'string') : []),
      credentialId: binding.bindingRef,
      ...signedClientOf(token.payload),
      linkedAccount: true,
    };
  }
}

/** The JWS header's `alg`, only to route the token to its verifier; each verifier pins its own algorithms. */
const headerAlgorithm = (token: string): string | undefined => {
  try {
    const { alg } = decodeProtectedHeader(token);
    return typeof alg === 'string' ? alg : undefined;
  } catch {
    return undefined;
  }
};

/** A tenant header may restate the signed tenant; it can never establish or override it. */
const assertTenantHeaders = (headers: Credentials['headers'], tenantId: string): void => {
  for (const name of TENANT_HEADERS) {
    const value = headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value) || value !== tenantId) throw new HelixError('tenant_mismatch');
  }
};
