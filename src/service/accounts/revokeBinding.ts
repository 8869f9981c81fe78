import { secretHash } from '../../accounts/secrets.js';
import { HelixError } from '../../domain/errors.js';
import { BINDING_REF, revocationReceipt, type BindingRevocationView } from './bindingViews.js';
import type { AccountDeps } from './deps.js';

/**
 * DELETE /api/account/session/agent-bindings/{binding_ref}. The session is checked again inside
 * the transaction that revokes, so a session revoked meanwhile cannot revoke anything; the path's
 * opaque ref and the session are all there is (no caller-supplied identity).
 */
export const revokeBinding = async (
  deps: AccountDeps,
  sessionCookie: string | undefined,
  bindingRef: string,
): Promise<BindingRevocationView> => {
  const notFound = new HelixError('not_found', {}, 'The binding was not found.');
  if (!BINDING_REF.test(bindingRef)) throw notFound;
  const outcome = await deps.store.transaction(async (uow) => {
    const now = deps.now();
    const session = sessionCookie === undefined ? undefined : await uow.sessions.get(secretHash(sessionCookie));
    if (session === undefined || session.revokedAt !== null || session.expiresAt <= now)
      throw new HelixError('session_required');
    return uow.bindings.revoke(session.accountId, bindingRef, now);
  });
  if (outcome === 'not_found') throw notFound;
  return revocationReceipt(bindingRef, outcome);
};
