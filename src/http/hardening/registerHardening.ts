import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { HelixConfig, RateLimits } from '../../config.js';
import { decorateRateLimits, RateLimitBuckets } from './rateLimits.js';
import { assertHttps } from './requireHttps.js';

export interface HardeningOptions {
  readonly rateLimits: RateLimits;
  /** TRUST_PROXY, given to Fastify through fastifyTrustProxy; it decides `request.ip` and `request.protocol`. */
  readonly trustProxy: HelixConfig['trustProxy'];
  /** Production: refuse anything that did not arrive over HTTPS. */
  readonly requireHttps: boolean;
  /** Monotonic milliseconds for the rate windows; tests inject one. */
  readonly now?: () => number;
}

/** The Fastify `trustProxy` option: the configured proxy addresses, or trust nobody. */
export const fastifyTrustProxy = (trustProxy: HelixConfig['trustProxy']): boolean | string => trustProxy ?? false;

/**
 * Pre-auth hardening, as onRequest hooks. Register after the hook that sets X-Request-Id and
 * checks Host/Origin, so a 429 or 403 still carries the request id and no-store headers.
 * Every request is counted before HTTPS is checked, so no refusal path escapes the limit.
 * Per-principal limits run later, in the routes (enforcePrincipalLimit), once a principal exists.
 */
export const registerHardening = (app: FastifyInstance, options: HardeningOptions): void => {
  const buckets = new RateLimitBuckets({ limits: options.rateLimits, now: options.now ?? (() => performance.now()) });
  decorateRateLimits(app, buckets);
  app.addHook('onRequest', async (request) => {
    buckets.checkClient(request);
    if (options.requireHttps) assertHttps(request);
  });
};
