import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { HelixConfig, HttpLimits, RateLimits } from '../../config.js';
import { decorateRateLimits, RateLimitBuckets } from './rateLimits.js';
import { assertHttps } from './requireHttps.js';
import { settle } from '../hookCallback.js';
import { capConnectionsPerAddress } from './connectionCap.js';
import { budgetConnections } from './connectionBudget.js';
import { trustFunction } from '../../config/trustProxy.js';

export interface HardeningOptions {
  readonly rateLimits: RateLimits;
  /** TRUST_PROXY, given to Fastify through fastifyTrustProxy; it decides `request.ip` and `request.protocol`. */
  readonly trustProxy: HelixConfig['trustProxy'];
  /** Header/body timeouts and the per-address connection cap (applied in buildApp and here). */
  readonly httpLimits: HttpLimits;
  /** All open connections together (HELIX_HTTP_MAX_CONNECTIONS, or derived from the descriptor limit at start). */
  readonly maxConnections: number;
  /** Production: refuse anything that did not arrive over HTTPS. */
  readonly requireHttps: boolean;
  /** Monotonic milliseconds for the rate windows; tests inject one. */
  readonly now?: () => number;
}

/**
 * Node's parser timeouts: the headers within headersTimeout and the whole request within
 * requestTimeout (Fastify's default 0 disables the latter). The check runs every second, so a
 * trickled body is cut off soon after its deadline rather than at Node's 30-second sweep.
 */
export const serverTimeouts = (limits: HttpLimits) => ({
  requestTimeout: limits.requestTimeoutMs,
  http: {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: 1_000,
  },
});

/** The Fastify `trustProxy` option: a predicate over each hop (src/config/trustProxy.ts); nobody when unset. */
export const fastifyTrustProxy = (trustProxy: HelixConfig['trustProxy']): ((address: string, hop: number) => boolean) =>
  trustFunction(trustProxy);

/**
 * Pre-auth hardening, as onRequest hooks. Register after the hook that sets X-Request-Id and
 * checks Host/Origin, so a 429 or 403 still carries the request id and no-store headers.
 * Every request is counted before HTTPS is checked, so no refusal path escapes the limit.
 * Per-principal limits run later, in the routes (enforcePrincipalLimit), once a principal exists.
 */
export const registerHardening = (app: FastifyInstance, options: HardeningOptions): void => {
  const buckets = new RateLimitBuckets({ limits: options.rateLimits, now: options.now ?? (() => performance.now()) });
  decorateRateLimits(app, buckets);
  capConnectionsPerAddress(app.server, options.httpLimits.maxConnectionsPerIp, fastifyTrustProxy(options.trustProxy));
  // After the per-address cap, so a connection it refused displaces nobody.
  budgetConnections(app.server, options.maxConnections);
  app.addHook('onRequest', (request, _reply, done) =>
    settle(done, () => {
      buckets.checkClient(request);
      if (options.requireHttps) assertHttps(request);
    }),
  );
};
