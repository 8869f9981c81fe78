import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL_MS, type StartedSession } from '../../accounts/sessions.js';
import { isHelixError } from '../../domain/errors.js';
import { previewSignInLink } from '../../service/accounts/previewSignInLink.js';
import { currentAccount } from '../../service/accounts/sessionAccount.js';
import { signInWithCode } from '../../service/accounts/signInWithCode.js';
import { signInWithPassword } from '../../service/accounts/signInWithPassword.js';
import { signOut } from '../../service/accounts/signOut.js';
import type { AccountDeps } from '../../service/accounts/deps.js';
import type { ResourceIdentity } from '../resourceIdentity.js';
import { field, html } from './consoleRequest.js';
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from './cookies.js';
import { confirmSignInPage, refusedFormPage, signInPage } from './page.js';
import { requireSameOrigin } from './sameOrigin.js';

export interface SignInOptions {
  readonly deps: AccountDeps;
  readonly secureCookies: boolean;
  readonly identity: ResourceIdentity;
}

const INVALID_LINK = 'This sign-in link is invalid, expired or already used.';

type FormHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Login and logout CSRF (OBS-18): a form that starts or ends a session must come from this origin,
 * like every other console form (src/http/account/sameOrigin.ts). Refused before its code or
 * password is looked at, so a forged post spends no code and leaves the browser's session as it was.
 */
const sameOriginForm =
  (identity: ResourceIdentity, handler: FormHandler): FormHandler =>
  async (request, reply) => {
    try {
      requireSameOrigin(request, identity);
    } catch (err) {
      if (isHelixError(err) && err.code === 'forbidden_origin')
        return html(reply, err.status, refusedFormPage(err.message));
      throw err;
    }
    return handler(request, reply);
  };

/**
 * Sign-in and sign-out. Opening a sign-in link (GET) never signs in: it shows whose account the
 * link is for, and its button posts the code back from this origin. Every sign-in rotates the session.
 */
export const registerSignInRoutes = (app: FastifyInstance, options: SignInOptions): void => {
  const { deps, secureCookies, identity } = options;
  const signedIn = (reply: FastifyReply, session: StartedSession) =>
    setSessionCookie(reply, session.cookie, Math.floor(SESSION_TTL_MS / 1000), secureCookies).redirect('/account', 303);

  app.get<{ Querystring: { code?: string } }>('/account/sign-in', async (request, reply) => {
    const code = String(request.query.code ?? '');
    const link = await previewSignInLink(deps, code);
    if (link === undefined) return html(reply, 400, signInPage(INVALID_LINK));
    const current = await currentAccount(deps, sessionCookieOf(request));
    return html(reply, 200, confirmSignInPage(code, link.displayName, current?.displayName));
  });

  app.post(
    '/account/sign-in',
    sameOriginForm(identity, async (request, reply) => {
      const previous = sessionCookieOf(request);
      const code = field(request, 'code');
      if (code !== '') {
        const session = await signInWithCode(deps, code, previous);
        return session === undefined ? html(reply, 400, signInPage(INVALID_LINK)) : signedIn(reply, session);
      }
      const credentials = { accountId: field(request, 'account'), password: field(request, 'password') };
      const session = await signInWithPassword(deps, credentials, previous);
      return session === undefined
        ? html(reply, 401, signInPage('Wrong account id or password.'))
        : signedIn(reply, session);
    }),
  );

  app.post(
    '/account/sign-out',
    sameOriginForm(identity, async (request, reply) => {
      await signOut(deps, sessionCookieOf(request));
      return clearSessionCookie(reply, secureCookies).redirect('/account', 303);
    }),
  );
};
