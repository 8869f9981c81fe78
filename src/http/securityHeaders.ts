import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

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
  // Headers for documents in old browsers (IE's download prompt, Flash and PDF cross-domain
  // policies, the retired XSS auditor, DNS prefetching, agent clusters): an API answer is no such
  // document, and twelve headers instead of seven on every answer cost throughput for nothing.
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const satisfies HelmetOptions;

/** The account pages: their own script and form posts, inline styles only, never framed. */
const ACCOUNT_PAGE_HEADERS_FULL = {
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
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

/**
 * The headers helmet sets for `options`, computed once at start-up. They depend on nothing in the
 * request, and running helmet on every request (as @fastify/helmet does) cost a fifth of the REST
 * inspect throughput in `npm run bench`; setting the computed headers costs next to nothing.
 */
const headersOf = (options: Readonly<HelmetOptions>): Readonly<Record<string, string>> => {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
};

const API_SECURITY_HEADERS = headersOf(API_HEADERS);
/** The pages are documents: helmet's full set, with their own policy. */
const PAGE_SECURITY_HEADERS = headersOf(ACCOUNT_PAGE_HEADERS_FULL);

/** Helmet's headers on every answer (an onRequest hook, so refusals carry them too), with the API policy. */
export const registerSecurityHeaders = (app: FastifyInstance): void => {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
};

/** Replaces the API policy with the account pages' one on an HTML answer. */
export const usePagePolicy = (reply: FastifyReply): FastifyReply => reply.headers(PAGE_SECURITY_HEADERS);
