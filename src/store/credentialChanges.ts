import type { Kysely } from 'kysely';
import type { HelixDatabase } from './schema.js';

/**
 * The PostgreSQL channel a committed credential change is announced on. Every process that shares
 * the database (replicas, and a CLI revoking a key) notifies it; every server listens on it.
 */
export const CREDENTIALS_CHANNEL = 'helix_credentials';

/**
 * What a repository calls, on the same connection or transaction and right after its write, when
 * it changed a row an authenticated credential depends on: a key revoked, an account created or
 * its status changed, a subject's records erased. Servers drop their verified-credential caches on
 * the change, once it is committed (src/auth/credentialCache.ts).
 */
export type CredentialsChanged = (db: Kysely<HelixDatabase>) => Promise<void>;
