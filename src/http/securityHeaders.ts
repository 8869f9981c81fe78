import { fastifyHelmet, type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Every answer is JSON, an event stream or a redirect unless it is one of the account pages, so
 * the default policy loads nothing and may be framed by nobody (OWASP REST Security Cheat Sheet,
 * "Security headers"). Referrer-Policy is same-origin, not helmet's no-referrer: under no-referrer
 * a browser sends `Origin: null` on the account page's POST and DELETE requests (Fetch standard,
 * "serializing a request origin"), which the host policy refuses; same-origin still keeps a
 * sign-in link's code out of any other site's Referer. Helmet's other defaults stay: nosniff,
 * HSTS (ignored by browsers over plain HTTP, RFC 6797 §8.1), COOP/CORP same-origin.
 */
const API_HEADERS = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
} as const satisfies FastifyHelmetOptions;

/** The account pages: their own script and form posts, inline styles only, never framed. */
const ACCOUNT_PAGE_HEADERS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      connectSrc: ["'self'"],
      styleSrc: ["'unsafe-inline'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  },
} as const;

/** Helmet on every route (an onRequest hook), with the API policy. */
export const registerSecurityHeaders = (app: FastifyInstance): void => {
  void app.register(fastifyHelmet, API_HEADERS);
};

/** Replaces the API policy with the account pages' one on an HTML answer. */
export const usePagePolicy = (reply: FastifyReply): FastifyReply => {
  reply.helmet(ACCOUNT_PAGE_HEADERS);
  return reply;
};
