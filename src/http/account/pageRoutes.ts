import type { FastifyInstance } from 'fastify';
import type { AccountDeps } from '../../service/accounts/deps.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import { listAccountApiKeys } from '../../service/accounts/listAccountApiKeys.js';
import { revokeAccountApiKey } from '../../service/accounts/revokeAccountApiKey.js';
import { currentAccount } from '../../service/accounts/sessionAccount.js';
import { asAccount, html } from './consoleRequest.js';
import { sessionCookieOf } from './cookies.js';
import { accountPage, BINDINGS_SCRIPT, refusedFormPage, signInPage } from './page.js';
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
 * The browser sign-in and the account page (agent bindings and API keys, each revocable). Registered in its own encapsulated scope, the only one
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
    return html(reply, 200, accountPage(account.displayName, await listAccountApiKeys(deps, account.accountId)));
  });

  // Same origin and the session (asAccount); the path's key id and the session are all there is.
  // Another account's key is "not found", like an unknown one; a refusal changes nothing.
  app.post<{ Params: { key_id: string } }>(
    '/account/keys/:key_id/revoke',
    asAccount<{ Params: { key_id: string } }>(
      { accounts: deps, identity: options.identity },
      async (_accountId, request, reply) => {
        await revokeAccountApiKey(deps, sessionCookieOf(request), request.params.key_id);
        return reply.redirect('/account', 303);
      },
      refusedFormPage,
    ),
  );

  app.get('/account/bindings.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(BINDINGS_SCRIPT),
  );

  registerSignInRoutes(app, { deps, secureCookies, identity: options.identity });
  if (options.rooms !== undefined) registerRoomPages(app, deps, options.rooms, options.identity);
  if (options.runs !== undefined) registerRunPages(app, { accounts: deps, identity: options.identity }, options.runs);
  // The chats (D-05) need the room deps' account policy for their observer lane (SLR-11).
  if (options.rooms !== undefined) registerChatPages(app, deps, options.rooms, options.identity);
};
