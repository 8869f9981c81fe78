import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/principal.js';
import type { RateLimits } from '../../config.js';
import { HelixError } from '../../domain/errors.js';
import { clientKeyOf } from './clientKey.js';
import { FixedWindowLimiter } from './fixedWindowLimiter.js';

/**
 * The surfaces with separate budgets: a busy MCP client must not starve REST, nor the reverse; the
 * room facade has its own pair of limits (SLR-16: HELIX_ROOM_AGENT_*_RATE_LIMIT), and so has the
 * console's source manager and credential claim (SRC-10: HELIX_ROOM_SOURCE_BROWSER_*_RATE_LIMIT),
 * whose second budget is per signed-in account rather than per credential, and so has the
 * console's observer lane (OBS-15: HELIX_AGENT_RUN_OBSERVER_*_RATE_LIMIT), and so has the source
 * ingress lane, whose post-auth key is the binding (HELIX_ROOM_INGRESS_*_RATE_LIMIT).
 */
export const PRINCIPAL_SURFACES = ['rest', 'mcp', 'rooms', 'ingress'] as const;
export type PrincipalSurface = (typeof PRINCIPAL_SURFACES)[number];
/** The cookie-authenticated browser surfaces, whose second budget is the signed-in account's. */
export const ACCOUNT_SURFACES = ['room_sources', 'observer'] as const;
export type AccountSurface = (typeof ACCOUNT_SURFACES)[number];
export const LIMITED_SURFACES = [...PRINCIPAL_SURFACES, ...ACCOUNT_SURFACES] as const;
export type LimitedSurface = (typeof LIMITED_SURFACES)[number];

/** The configured limits are per minute (HELIX_*_RATE_LIMIT). */
export const RATE_WINDOW_MS = 60_000;
/** Keys tracked per limiter: ~100 bytes each, so a flood of addresses costs at most ~10 MB per limiter. */
export const MAX_TRACKED_KEYS = 100_000;

/** Both MCP servers (the full one and the Device Check one) share the MCP bucket. */
const MCP_ROUTES: ReadonlySet<string> = new Set(['/mcp', '/mcp/device-check']);
/** Every route of the room facade (src/http/rest/roomRoutes.ts) starts with it. */
const ROOMS_ROUTE = '/api/v1/rooms';
/**
 * The source manager (SRC-06) and the credential claim (SRC-04): the cookie-authenticated JSON
 * routes (src/http/account/roomSourceRoutes.ts) and the console's source forms and claim page
 * (src/http/account/roomSourcePageRoutes.ts).
 */
const ROOM_SOURCE_ROUTES = ['/api/agi/realtime/', '/account/rooms/:room_id/sources', '/account/room-sources/'];
/** The browser observer lane (OBS-01, OBS-11, OBS-12: src/http/account/observerRoutes.ts). */
const OBSERVER_ROUTE_PREFIX = '/api/agi/agent-run-observer/';
/**
 * Every route of the source ingress lane (src/http/ingress/ingressRoutes.ts) and of the action lane
 * (src/http/ingress/actionRoutes.ts) starts with one of these: the connector's lanes share a budget.
 */
const INGRESS_ROUTE_PREFIXES = ['/api/room-ingress/', '/api/room-actions/'];

const surfaceOf = (route: string | undefined): LimitedSurface => {
  if (route !== undefined && MCP_ROUTES.has(route)) return 'mcp';
  if (route !== undefined && (route === ROOMS_ROUTE || route.startsWith(`${ROOMS_ROUTE}/`))) return 'rooms';
  if (route !== undefined && ROOM_SOURCE_ROUTES.some((prefix) => route.startsWith(prefix))) return 'room_sources';
  if (route?.startsWith(OBSERVER_ROUTE_PREFIX)) return 'observer';
  if (route !== undefined && INGRESS_ROUTE_PREFIXES.some((prefix) => route.startsWith(prefix))) return 'ingress';
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

type Limiters<S extends string> = Readonly<Record<S, FixedWindowLimiter | undefined>>;

/** The limiters of one app, two per surface; a configured limit of 0 leaves that one out (off). */
export class RateLimitBuckets {
  private readonly perIp: Limiters<LimitedSurface>;
  private readonly perPrincipal: Limiters<PrincipalSurface>;
  /** SRC-10, OBS-15: the browser surfaces' second budget is the signed-in account's. */
  private readonly perAccount: Limiters<AccountSurface>;

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
      room_sources: limiter(limits.roomSourcesPerIp),
      observer: limiter(limits.observerPerIp),
      ingress: limiter(limits.ingressPerIp),
    };
    this.perPrincipal = {
      rest: limiter(limits.restPerPrincipal),
      mcp: limiter(limits.mcpPerPrincipal),
      rooms: limiter(limits.roomsPerPrincipal),
      ingress: limiter(limits.ingressPerBinding),
    };
    this.perAccount = {
      room_sources: limiter(limits.roomSourcesPerAccount),
      observer: limiter(limits.observerPerAccount),
    };
  }

  /** Pre-auth: counts the request against its surface's per-IP bucket (an onRequest hook). */
  checkClient(request: FastifyRequest): void {
    const route = request.routeOptions.url;
    if (isUnlimitedRoute(route)) return;
    const surface = surfaceOf(route);
    // Off (0): no key to compute; resolving request.ip through the proxy rules is not free.
    if (this.perIp[surface] === undefined) return;
    check(this.perIp[surface], clientKeyOf(request.ip), request, { bucket: `${surface}_ip`, field: 'client' });
  }

  /** Post-auth: counts the request against the verified credential's bucket (a source's: its binding id). */
  checkPrincipal(request: FastifyRequest, principalId: string, surface: PrincipalSurface): void {
    check(this.perPrincipal[surface], principalId, request, { bucket: `${surface}_principal`, field: 'principal' });
  }

  /** Post-session: counts the request against the signed-in account's bucket of that browser surface. */
  checkAccount(request: FastifyRequest, accountId: string, surface: AccountSurface): void {
    check(this.perAccount[surface], accountId, request, { bucket: `${surface}_account`, field: 'account' });
  }
}

/** How a refusal is logged: the bucket's name and the field that names its key. */
interface BucketLabel {
  readonly bucket: string;
  readonly field: 'client' | 'principal' | 'account';
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
  // addresses, credential ids and account ids, never credentials. (request.log already carries request_id.)
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

const bucketsOf = (request: FastifyRequest): RateLimitBuckets => {
  const buckets = request.server.helixRateLimits;
  // Fail loudly rather than serve without limits if the app was assembled without registerHardening.
  if (buckets === undefined) throw new Error('rate limits are not registered on this app (registerHardening)');
  return buckets;
};

/**
 * Call right after authentication: 429 `rate_limited` (with Retry-After) once this credential has
 * used its per-minute budget on this surface; other principals are unaffected.
 */
export const enforcePrincipalLimit = (
  request: FastifyRequest,
  principal: Principal,
  surface: Exclude<PrincipalSurface, 'ingress'>,
): void => bucketsOf(request).checkPrincipal(request, principal.credentialId, surface);

/** The ingress lane's post-auth limit: one budget per source binding, whatever address it calls from. */
export const enforceBindingLimit = (request: FastifyRequest, bindingId: string): void =>
  bucketsOf(request).checkPrincipal(request, bindingId, 'ingress');

/**
 * SRC-10, OBS-15: call once the session names the account, on every source-manager, claim and
 * observer request.
 */
export const enforceAccountLimit = (request: FastifyRequest, accountId: string, surface: AccountSurface): void => {
  bucketsOf(request).checkAccount(request, accountId, surface);
};
