import type { FastifyInstance, FastifyReply } from 'fastify';
import { SESSION_TTL_MS, type StartedSession } from '../../accounts/sessions.js';
import type { AccountDeps } from '../../service/accounts/deps.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import { currentAccount } from '../../service/accounts/sessionAccount.js';
import { signInWithCode } from '../../service/accounts/signInWithCode.js';
import { signInWithPassword } from '../../service/accounts/signInWithPassword.js';
import { signOut } from '../../service/accounts/signOut.js';
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from './cookies.js';
import { usePagePolicy } from '../securityHeaders.js';
import { accountPage, BINDINGS_SCRIPT, signInPage } from './page.js';
import { registerChatPages } from './chatPageRoutes.js';
import { registerRoomPages } from './roomPageRoutes.js';
import { registerRunPages } from './runPageRoutes.js';
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

const html = (reply: FastifyReply, status: number, body: string) =>
  usePagePolicy(reply).code(status).type('text/html; charset=utf-8').send(body);

/**
 * The browser sign-in and the binding page. Registered in its own encapsulated scope, the only one
 * that parses HTML form posts. The use cases live in src/service/accounts/; every sign-in rotates the session.
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

  const signedIn = (reply: FastifyReply, session: StartedSession) =>
    setSessionCookie(reply, session.cookie, Math.floor(SESSION_TTL_MS / 1000), secureCookies).redirect('/account', 303);

  app.get('/account', async (request, reply) => {
    const account = await currentAccount(deps, sessionCookieOf(request));
    if (account === undefined) return html(reply, 200, signInPage());
    return html(reply, 200, accountPage(account.displayName));
  });

  app.get('/account/bindings.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(BINDINGS_SCRIPT),
  );

  app.get<{ Querystring: { code?: string } }>('/account/sign-in', async (request, reply) => {
    const previous = sessionCookieOf(request);
    const session = await signInWithCode(deps, String(request.query.code ?? ''), previous);
    if (session === undefined)
      return html(reply, 400, signInPage('This sign-in link is invalid, expired or already used.'));
    return signedIn(reply, session);
  });

  app.post<{ Body: { account?: string; password?: string } }>('/account/sign-in', async (request, reply) => {
    const { account = '', password = '' } = (request.body ?? {}) as { account?: string; password?: string };
    const previous = sessionCookieOf(request);
    const session = await signInWithPassword(deps, { accountId: account, password }, previous);
    if (session === undefined) return html(reply, 401, signInPage('Wrong account id or password.'));
    return signedIn(reply, session);
  });

  app.post('/account/sign-out', async (request, reply) => {
    await signOut(deps, sessionCookieOf(request));
    return clearSessionCookie(reply, secureCookies).redirect('/account', 303);
  });
  if (options.rooms !== undefined) registerRoomPages(app, deps, options.rooms, options.identity);
  if (options.runs !== undefined) registerRunPages(app, { accounts: deps, identity: options.identity }, options.runs);
  // The chats (D-05) need the room deps' account policy for their observer lane (SLR-11).
  if (options.rooms !== undefined) registerChatPages(app, deps, options.rooms, options.identity);
};
