import type { FastifyInstance } from 'fastify';
import { HelixError } from '../../domain/errors.js';
import type { AccountDeps } from '../../service/accounts/deps.js';
import { listBindings } from '../../service/accounts/listBindings.js';
import { revokeBinding } from '../../service/accounts/revokeBinding.js';
import { requireSessionAccount } from '../../service/accounts/sessionAccount.js';
import { sessionCookieOf } from './cookies.js';

export const BINDINGS_PATH = '/api/account/session/agent-bindings';
const BINDING_PATH = `${BINDINGS_PATH}/:binding_ref`;

/** The two cookie-authenticated binding endpoints (published in the OpenAPI document). */
export const BINDING_ROUTES = [
  { method: 'GET', url: BINDINGS_PATH },
  { method: 'DELETE', url: BINDING_PATH },
] as const;

/**
 * Cookie-authenticated binding management: a same-origin browser surface, never a bearer one.
 * Both routes re-resolve the session on every request (src/service/accounts/).
 */
export const registerBindingRoutes = (app: FastifyInstance, deps: AccountDeps): void => {
  app.get(BINDINGS_PATH, async (request) => listBindings(deps, sessionCookieOf(request)));

  app.delete<{ Params: { binding_ref: string } }>(BINDING_PATH, async (request) => {
    const cookie = sessionCookieOf(request);
    await requireSessionAccount(deps, cookie);
    // Caller-supplied identity is not accepted: the path's opaque ref and the session are all there is.
    if (request.body !== undefined && request.body !== null && request.body !== '')
      throw new HelixError('invalid_request');
    if (Object.keys((request.query ?? {}) as object).length > 0) throw new HelixError('invalid_request');
    return revokeBinding(deps, cookie, request.params.binding_ref);
  });
};
