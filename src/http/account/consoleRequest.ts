import type { FastifyReply, FastifyRequest } from 'fastify';
import { isHelixError } from '../../domain/errors.js';
import type { AccountDeps } from '../../service/accounts/deps.js';
import { requireSessionAccount } from '../../service/accounts/sessionAccount.js';
import type { ResourceIdentity } from '../resourceIdentity.js';
import { usePagePolicy } from '../securityHeaders.js';
import { sessionCookieOf } from './cookies.js';
import { signInPage } from './page.js';
import { roomErrorPage } from './roomPages.js';
import { requireSameOrigin } from './sameOrigin.js';

/** What every console page handler needs: the session store and this server's public origin. */
export interface ConsoleContext {
  readonly accounts: AccountDeps;
  readonly identity: ResourceIdentity;
}

export const html = (reply: FastifyReply, status: number, body: string) =>
  usePagePolicy(reply).code(status).type('text/html; charset=utf-8').send(body);

type Form = Readonly<Record<string, unknown>>;

/** One form field as text; a missing or repeated field is empty, which the use case then refuses. */
export const field = (request: FastifyRequest, name: string): string => {
  const value = ((request.body ?? {}) as Form)[name];
  return typeof value === 'string' ? value : '';
};

/** Room ids are `room_` and hex: safe in a path as they are, checked again by every use case. */
export const roomPath = (roomId: string): string => `/account/rooms/${encodeURIComponent(roomId)}`;

/**
 * Runs one page handler as the signed-in account; a refusal becomes a page with the error's status
 * (and Retry-After on a rate limit). A form post must come from this origin (src/http/account/
 * sameOrigin.ts). No session is the sign-in page (401); another account's room, run or chat reads
 * "not found" (RREST-03, OBS-08). Other refusals render as `errorPage` (the room pages' by default).
 */
export const asAccount =
  <R extends object>(
    context: ConsoleContext,
    handler: (accountId: string, request: FastifyRequest<R>, reply: FastifyReply) => Promise<unknown>,
    errorPage: (message: string) => string = roomErrorPage,
  ) =>
  async (request: FastifyRequest<R>, reply: FastifyReply): Promise<unknown> => {
    try {
      if (request.method === 'POST') requireSameOrigin(request, context.identity);
      const accountId = await requireSessionAccount(context.accounts, sessionCookieOf(request));
      return await handler(accountId, request, reply);
    } catch (err) {
      if (!isHelixError(err) || err.code === 'internal_error') throw err;
      if (err.code === 'session_required') return html(reply, 401, signInPage(err.message));
      if (err.details.retry_after_seconds !== undefined)
        reply.header('Retry-After', String(err.details.retry_after_seconds));
      const detail = err.details.issues?.map((i) => `${i.path} ${i.message}`).join('; ');
      return html(reply, err.status, errorPage(detail === undefined ? err.message : `${err.message} ${detail}`));
    }
  };
