import { secretHash } from '../../accounts/secrets.js';
import { HelixError } from '../../domain/errors.js';
import { API_KEY_ID } from './apiKeyViews.js';
import type { AccountDeps } from './deps.js';

/**
 * POST /account/keys/{key_id}/revoke: the account holder revokes one of the account's own `hlx_`
 * keys, as `helix keys revoke` does. The session is checked again inside the transaction that
 * revokes (a session ended meanwhile revokes nothing), and a key of another account is "not found"
 * exactly like an unknown one. The repository's revoke announces the credential change, so every
 * server drops its cached key with the commit and the key's next request is refused.
 */
export const revokeAccountApiKey = async (
  deps: AccountDeps,
  sessionCookie: string | undefined,
  keyId: string,
): Promise<'revoked' | 'already_revoked'> => {
  const notFound = new HelixError('not_found', {}, 'The key was not found.');
  if (!API_KEY_ID.test(keyId)) throw notFound;
  return deps.store.transaction(async (uow) => {
    const now = deps.now();
    const session = sessionCookie === undefined ? undefined : await uow.sessions.get(secretHash(sessionCookie));
    if (session === undefined || session.revokedAt !== null || session.expiresAt <= now)
      throw new HelixError('session_required');
    const key = (await uow.apiKeys.listForAccount(session.accountId)).find((k) => k.keyId === keyId);
    if (key === undefined) throw notFound;
    if (key.revokedAt !== null) return 'already_revoked';
    await uow.apiKeys.revoke(keyId, now);
    return 'revoked';
  });
};
