import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveSession } from '../../accounts/sessions.js';
import { secretHash } from '../../accounts/secrets.js';
import { HelixError } from '../../domain/errors.js';
import type { Store } from '../../store/port.js';
import { projectBindings, revocationReceipt } from './bindingViews.js';
import { sessionCookieOf } from './cookies.js';

export const BINDINGS_PATH = '/api/account/session/agent-bindings';
export const BINDING_REF = /^agent-binding:sha256:[0-9a-f]{64}$/;
const BINDING_PATH = `${BINDINGS_PATH}/:binding_ref`;

/** The two cookie-authenticated binding endpoints (published in the OpenAPI document). */
export const BINDING_ROUTES = [
  { method: 'GET', url: BINDINGS_PATH },
  { method: 'DELETE', url: BINDING_PATH },
] as const;

/**
 * Cookie-authenticated binding management: a same-origin browser surface, never a bearer one.
 * Both routes re-resolve the session on every request; the delete re-checks it inside the same
 * transaction that revokes, so a session revoked meanwhile cannot revoke anything.
 */
export const registerBindingRoutes = (app: FastifyInstance, store: Store, now: () => number): void => {
  const accountOf = async (request: FastifyRequest): Promise<string> => {
    const account = await resolveSession(store, sessionCookieOf(request), now());
    if (account === undefined) throw new HelixError('session_required');
    return account;
  };

  app.get(BINDINGS_PATH, async (request) =>
    projectBindings(await store.read.bindings.listForAccount(await accountOf(request))),
  );

  app.delete<{ Params: { binding_ref: string } }>(BINDING_PATH, async (request) => {
    const cookie = sessionCookieOf(request);
    await accountOf(request);
    const bindingRef = request.params.binding_ref;
    // Caller-supplied identity is not accepted: the path's opaque ref and the session are all there is.
    if (request.body !== undefined && request.body !== null && request.body !== '')
      throw new HelixError('invalid_request');
    if (Object.keys((request.query ?? {}) as object).length > 0) throw new HelixError('invalid_request');
    const notFound = new HelixError('not_found', {}, 'The binding was not found.');
    if (!BINDING_REF.test(bindingRef)) throw notFound;
    const outcome = await store.transaction(async (uow) => {
      const session = cookie === undefined ? undefined : await uow.sessions.get(secretHash(cookie));
      if (session === undefined || session.revokedAt !== null || session.expiresAt <= now())
        throw new HelixError('session_required');
      return uow.bindings.revoke(session.accountId, bindingRef, now());
    });
    if (outcome === 'not_found') throw notFound;
    return revocationReceipt(bindingRef, outcome);
  });
};
