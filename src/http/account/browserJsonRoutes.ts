import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HelixError } from '../../domain/errors.js';
import type { AccountDeps } from '../../service/accounts/deps.js';
import { requireSessionAccount } from '../../service/accounts/sessionAccount.js';
import { type AccountSurface, enforceAccountLimit } from '../hardening/rateLimits.js';
import type { ResourceIdentity } from '../resourceIdentity.js';
import { sessionCookieOf } from './cookies.js';
import { requireSameOrigin } from './sameOrigin.js';

/** One cookie-authenticated JSON route of the console: the use case it calls as the signed-in account. */
export interface BrowserRoute<D, P> {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly status: number;
  /** Routes that name everything in the path refuse a body; `query` routes take a query string. */
  readonly input: 'none' | 'body' | 'query';
  readonly handler: (deps: D, accountId: string, request: FastifyRequest<{ Params: P }>) => Promise<unknown>;
}

export interface BrowserRouteOptions<D> {
  readonly accounts: AccountDeps;
  readonly deps: D;
  readonly identity: ResourceIdentity;
  /** The per-account budget the routes count against (SRC-10, OBS-15); the per-IP one ran before routing. */
  readonly surface: AccountSurface;
  readonly bodyLimit: number;
}

const assertNoInput = (request: FastifyRequest, input: 'none' | 'body' | 'query'): void => {
  const hasQuery = request.url.includes('?');
  if ((input !== 'body' && request.body !== undefined) || (input !== 'query' && hasQuery))
    throw new HelixError('invalid_request', { issues: [{ path: '(request)', message: 'takes no body or query' }] });
};

/**
 * Same-origin, cookie-authenticated JSON routes: never a bearer surface. In order: same origin
 * (OBS-18, src/http/account/sameOrigin.ts), the session re-resolved (401 `session_required`: a
 * guest is refused, D-05), the account's per-minute budget, then the use case. Every answer is
 * `Cache-Control: no-store` (src/http/app.ts), which show-once secrets need.
 */
export const registerBrowserRoutes = <D, P>(
  app: FastifyInstance,
  routes: readonly BrowserRoute<D, P>[],
  options: BrowserRouteOptions<D>,
): void => {
  for (const route of routes) {
    app.route<{ Params: P }>({
      method: route.method,
      url: route.url,
      bodyLimit: options.bodyLimit,
      handler: async (request, reply: FastifyReply) => {
        requireSameOrigin(request, options.identity);
        const accountId = await requireSessionAccount(options.accounts, sessionCookieOf(request));
        enforceAccountLimit(request, accountId, options.surface);
        assertNoInput(request, route.input);
        return reply.code(route.status).send(await route.handler(options.deps, accountId, request));
      },
    });
  }
};
