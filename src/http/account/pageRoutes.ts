import type { FastifyInstance } from 'fastify';
import type { AccountDeps } from '../../service/accounts/deps.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import { currentAccount } from '../../service/accounts/sessionAccount.js';
import { html } from './consoleRequest.js';
import { sessionCookieOf } from './cookies.js';
import { accountPage, BINDINGS_SCRIPT, signInPage } from './page.js';
import { registerChatPages } from './chatPageRoutes.js';
import { registerRoomPages } from './roomPageRoutes.js';
import { registerRunPages } from './runPageRoutes.js';
import { registerSignInRoutes } from './signInRoutes.js';
import type { RunServiceDeps } from '../../service/runs/deps.js';
import type { ResourceIdentity } from '../resourceIdentity.js';

export interface PageOptions {
  readonly deps: AccountDeps;
  readonly secureCookies: boolean;
  /** The Shared Live Room pages (/account/rooms…, D-09) exist only when the server serves rooms. */
  readonly rooms?: RoomDeps;
  /** The run pages (/account/runs…): the signed-in account's runs, read through the run use cases. */
  readonly runs?: RunServiceDeps;
  /** The public origin (HELIX_PUBLIC_BASE_URL) that invite links name, behind a proxy too. */
  readonly identity: ResourceIdentity;
}

/**
 * The browser sign-in and the binding page. Registered in its own encapsulated scope, the only one
 * that parses HTML form posts. The use cases live in src/service/accounts/; sign-in and sign-out in signInRoutes.ts.
 */
export const registerAccountPages = async (app: FastifyInstance, options: PageOptions): Promise<void> => {
  const { deps, secureCookies } = options;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  app.get('/account', async (request, reply) => {
    const account = await currentAccount(deps, sessionCookieOf(request));
    if (account === undefined) return html(reply, 200, signInPage());
    return html(reply, 200, accountPage(account.displayName));
  });

  app.get('/account/bindings.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(BINDINGS_SCRIPT),
  );

  registerSignInRoutes(app, { deps, secureCookies, identity: options.identity });
  if (options.rooms !== undefined) registerRoomPages(app, deps, options.rooms, options.identity);
  if (options.runs !== undefined) registerRunPages(app, { accounts: deps, identity: options.identity }, options.runs);
  // The chats (D-05) need the room deps' account policy for their observer lane (SLR-11).
  if (options.rooms !== undefined) registerChatPages(app, deps, options.rooms, options.identity);
};
