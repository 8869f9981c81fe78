import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endSession, resolveSession, SESSION_TTL_MS, signInWithCode, startSession } from '../../accounts/sessions.js';
import { verifyPassword } from '../../accounts/secrets.js';
import type { Store } from '../../store/port.js';
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from './cookies.js';
import { usePagePolicy } from '../securityHeaders.js';
import { accountPage, BINDINGS_SCRIPT, signInPage } from './page.js';

export interface PageOptions {
  readonly store: Store;
  readonly now: () => number;
  readonly secureCookies: boolean;
}

const html = (reply: FastifyReply, status: number, body: string) =>
  usePagePolicy(reply).code(status).type('text/html; charset=utf-8').send(body);

/**
 * The browser sign-in and the binding page. Registered in its own encapsulated scope, the only one
 * that parses HTML form posts; every session is rotated at sign-in (a new cookie, never a reused one).
 */
export const registerAccountPages = async (app: FastifyInstance, options: PageOptions): Promise<void> => {
  const { store, now, secureCookies } = options;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  /** Rotation: signing in always ends the browser's previous session and issues a new cookie. */
  const signedIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    session: { cookie: string; expiresAt: number },
  ) => {
    const previous = sessionCookieOf(request);
    if (previous !== undefined) await endSession(store, previous, now());
    return setSessionCookie(reply, session.cookie, Math.floor(SESSION_TTL_MS / 1000), secureCookies).redirect(
      '/account',
      303,
    );
  };

  app.get('/account', async (request, reply) => {
    const accountId = await resolveSession(store, sessionCookieOf(request), now());
    if (accountId === undefined) return html(reply, 200, signInPage());
    const account = await store.read.accounts.get(accountId);
    return html(reply, 200, accountPage(account?.displayName ?? accountId));
  });

  app.get('/account/bindings.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(BINDINGS_SCRIPT),
  );

  app.get<{ Querystring: { code?: string } }>('/account/sign-in', async (request, reply) => {
    const session = await signInWithCode(store, String(request.query.code ?? ''), now());
    if (session === undefined)
      return html(reply, 400, signInPage('This sign-in link is invalid, expired or already used.'));
    return signedIn(request, reply, session);
  });

  app.post<{ Body: { account?: string; password?: string } }>('/account/sign-in', async (request, reply) => {
    const { account = '', password = '' } = (request.body ?? {}) as { account?: string; password?: string };
    const record = /^acct_[0-9a-f]{24}$/.test(account) ? await store.read.accounts.get(account) : undefined;
    const ok =
      record?.status === 'active' &&
      record.passwordHash !== null &&
      (await verifyPassword(password, record.passwordHash));
    if (!ok) return html(reply, 401, signInPage('Wrong account id or password.'));
    return signedIn(request, reply, await startSession(store, record.accountId, now()));
  });

  app.post('/account/sign-out', async (request, reply) => {
    const cookie = sessionCookieOf(request);
    if (cookie !== undefined) await endSession(store, cookie, now());
    return clearSessionCookie(reply, secureCookies).redirect('/account', 303);
  });
};
