import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/principal.js';
import type { RateLimits } from '../../config.js';
import { HelixError } from '../../domain/errors.js';
import { clientKeyOf } from './clientKey.js';
import { FixedWindowLimiter } from './fixedWindowLimiter.js';

/**
 * The surfaces with separate budgets: a busy MCP client must not starve REST, nor the reverse; the
 * room facade has its own pair of limits (SLR-16: HELIX_ROOM_AGENT_*_RATE_LIMIT), and so has the
 * source ingress lane, whose post-auth key is the binding (HELIX_ROOM_INGRESS_*_RATE_LIMIT).
 */
export const LIMITED_SURFACES = ['rest', 'mcp', 'rooms', 'ingress'] as const;
export type LimitedSurface = (typeof LIMITED_SURFACES)[number];

/** The configured limits are per minute (HELIX_*_RATE_LIMIT). */
export const RATE_WINDOW_MS = 60_000;
/** Keys tracked per limiter: ~100 bytes each, so a flood of addresses costs at most ~10 MB per limiter. */
export const MAX_TRACKED_KEYS = 100_000;

const MCP_ROUTE = '/mcp';
/** Every route of the room facade (src/http/rest/roomRoutes.ts) starts with it. */
const ROOMS_ROUTE = '/api/v1/rooms';
/** Every route of the source ingress lane (src/http/ingress/ingressRoutes.ts) starts with it. */
const INGRESS_ROUTE_PREFIX = '/api/room-ingress/';

const surfaceOf = (route: string | undefined): LimitedSurface => {
  if (route === MCP_ROUTE) return 'mcp';
  if (route !== undefined && (route === ROOMS_ROUTE || route.startsWith(`${ROOMS_ROUTE}/`))) return 'rooms';
  if (route?.startsWith(INGRESS_ROUTE_PREFIX)) return 'ingress';
  return 'rest';
};

/**
 * Not counted against any pre-auth bucket: `/healthz` and the `/.well-known/*` discovery documents.
 * They are constant, read no store and check no credential, so answering them costs no more than
 * answering a 429 would; limiting them would only turn a load balancer's or an MCP client's
 * polling from a shared address into false outages. Everything else that is not `/mcp` counts
 * against the REST bucket, unknown paths included, so a path scanner is limited too.
 */
const isUnlimitedRoute = (route: string | undefined): boolean =>
  route !== undefined && (route === '/healthz' || route.startsWith('/.well-known/'));

export interface RateLimitOptions {
  readonly limits: RateLimits;
  readonly now: () => number;
  readonly maxKeys?: number;
}

type Limiters = Readonly<Record<LimitedSurface, FixedWindowLimiter | undefined>>;

/** The limiters of one app, two per surface; a configured limit of 0 leaves that one out (off). */
export class RateLimitBuckets {
  private readonly perIp: Limiters;
  private readonly perPrincipal: Limiters;

  constructor(options: RateLimitOptions) {
    const limiter = (limit: number): FixedWindowLimiter | undefined =>
      limit === 0
        ? undefined
        : new FixedWindowLimiter({
            limit,
            windowMs: RATE_WINDOW_MS,
            maxKeys: options.maxKeys ?? MAX_TRACKED_KEYS,
            now: options.now,
          });
    const { limits } = options;
    this.perIp = {
      rest: limiter(limits.restPerIp),
      mcp: limiter(limits.mcpPerIp),
      rooms: limiter(limits.roomsPerIp),
      ingress: limiter(limits.ingressPerIp),
    };
    this.perPrincipal = {
      rest: limiter(limits.restPerPrincipal),
      mcp: limiter(limits.mcpPerPrincipal),
      rooms: limiter(limits.roomsPerPrincipal),
      ingress: limiter(limits.ingressPerBinding),
    };
  }

  /** Pre-auth: counts the request against its surface's per-IP bucket (an onRequest hook). */
  checkClient(request: FastifyRequest): void {
    const route = request.routeOptions.url;
    if (isUnlimitedRoute(route)) return;
    const surface = surfaceOf(route);
    check(this.perIp[surface], clientKeyOf(request.ip), request, { bucket: `${surface}_ip`, field: 'client' });
  }

  /** Post-auth: counts the request against the verified credential's bucket (a source's: its binding id). */
  checkPrincipal(request: FastifyRequest, principalId: string, surface: LimitedSurface): void {
    check(this.perPrincipal[surface], principalId, request, { bucket: `${surface}_principal`, field: 'principal' });
  }
}

/** How a refusal is logged: the bucket's name and the field that names its key. */
interface BucketLabel {
  readonly bucket: string;
  readonly field: 'client' | 'principal';
}

const check = (
  limiter: FixedWindowLimiter | undefined,
  key: string,
  request: FastifyRequest,
  label: BucketLabel,
): void => {
  if (limiter === undefined) return;
  const decision = limiter.hit(key);
  if (decision.allowed) return;
  // Once per key and window: the flood itself shows in the request log as 429s. Keys are client
  // addresses and credential ids, never credentials. (request.log already carries request_id.)
  if (decision.firstRefusal) {
    request.log.warn(
      { bucket: label.bucket, [label.field]: key, retry_after_seconds: decision.retryAfterSeconds },
      'rate limited',
    );
  }
  throw new HelixError('rate_limited', { retry_after_seconds: decision.retryAfterSeconds });
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by registerHardening; routes reach it through `request.server`. */
    helixRateLimits?: RateLimitBuckets;
  }
}

export const decorateRateLimits = (app: FastifyInstance, buckets: RateLimitBuckets): void => {
  app.decorate('helixRateLimits', buckets);
};

/**
 * Call right after authentication: 429 `rate_limited` (with Retry-After) once this credential has
 * used its per-minute budget on this surface; other principals are unaffected.
 */
export const enforcePrincipalLimit = (request: FastifyRequest, principal: Principal, surface: LimitedSurface): void =>
  bucketsOf(request).checkPrincipal(request, principal.credentialId, surface);

/** The ingress lane's post-auth limit: one budget per source binding, whatever address it calls from. */
export const enforceBindingLimit = (request: FastifyRequest, bindingId: string): void =>
  bucketsOf(request).checkPrincipal(request, bindingId, 'ingress');

const bucketsOf = (request: FastifyRequest): RateLimitBuckets => {
  const buckets = request.server.helixRateLimits;
  // Fail loudly rather than serve without limits if the app was assembled without registerHardening.
  if (buckets === undefined) throw new Error('rate limits are not registered on this app (registerHardening)');
  return buckets;
};
