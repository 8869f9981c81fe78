import { canonicalJson, hmacHex } from './hashing.js';

/**
 * Keyed hashes of external identities. Tenants and subjects are stored and compared only in this
 * form, keyed by the installation secret, so a database dump does not reveal who is linked. The
 * tenant hash is the same one run ownership uses, so `tenant_ref` reads alike everywhere.
 */
export const tenantHash = (secret: string, tenantId: string): string =>
  hmacHex(secret, canonicalJson(['tenant', tenantId]));

export const subjectHash = (secret: string, provider: string, subject: string): string =>
  hmacHex(secret, canonicalJson(['subject', provider, subject]));

export const tenantRefOf = (hash: string): string => `tenant:sha256:${hash.slice(0, 32)}`;

/**
 * The data subject an owner belongs to (ADR-0004 subject access): the account id, keyed like the
 * rest, so the owner registry and the erasure audit never hold an account id in clear.
 */
export const dataSubjectKey = (secret: string, accountId: string): string =>
  hmacHex(secret, canonicalJson(['data_subject', accountId]));
