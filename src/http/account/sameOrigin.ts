import type { FastifyRequest } from 'fastify';
import { HelixError } from '../../domain/errors.js';
import { publicOrigin, type ResourceIdentity } from '../resourceIdentity.js';

/** Methods that change something: the ones a browser always sends an Origin with (Fetch standard). */
const isMutation = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

/**
 * Cross-site request forgery, for the cookie-authenticated console (OBS-18: these routes require
 * same-origin rather than rely on the SameSite=Lax session cookie and on the app-wide Origin
 * admission, src/http/hostPolicy.ts). A mutation must carry an Origin, and it must be this
 * server's own (its public origin, or the origin the admitted Host names); when the browser says
 * where a request came from (Sec-Fetch-Site), it must say same-origin. A GET carries no Origin from
 * a same-origin page, so only Sec-Fetch-Site and a supplied Origin are checked on one.
 */
export const requireSameOrigin = (request: FastifyRequest, identity: ResourceIdentity): void => {
  const { origin } = request.headers;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw new HelixError('forbidden_origin');
  if (origin === undefined) {
    if (isMutation(request.method)) throw new HelixError('forbidden_origin');
    return;
  }
  const own = [publicOrigin(request, identity), `${request.protocol}://${request.headers.host ?? ''}`];
  if (!own.includes(origin)) throw new HelixError('forbidden_origin');
};
