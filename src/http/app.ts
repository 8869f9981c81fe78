import { fastifyCookie } from '@fastify/cookie';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth/authenticate.js';
import { HelixError } from '../domain/errors.js';
import { advertisedOAuthScopes, dataOAuthScopesOf } from '../domain/scopeCatalog.js';
import type { RunService } from '../service/runs/runService.js';
import { isRoomPath, resourceMetadataUrl, sendError, toHelixError } from './errors.js';
import { parseJsonBody } from './jsonBody.js';
import { pickRequestId } from './requestId.js';
import {
  fastifyTrustProxy,
  registerHardening,
  serverTimeouts,
  type HardeningOptions,
} from './hardening/registerHardening.js';
import { answerClientError } from './hardening/clientErrors.js';
import { assertHostAndOrigin, type HostPolicy } from './hostPolicy.js';
import { settle } from './hookCallback.js';
import { registerMcpRoute } from './mcp/mcpRoute.js';
import { ToolCatalog } from './mcp/toolCatalog.js';
import { DEVICE_CHECK_TOOL } from './mcp/tools/deviceCheckTool.js';
import { EMBODIMENT_TOOLS } from './mcp/tools/embodimentTools.js';
import { recordRouteTable } from './routeTable.js';
import { registerRequestLog } from './requestLog.js';
import { registerRequestTracing } from './requestTracing.js';
import { registerSecurityHeaders } from './securityHeaders.js';
import { ROOM_TOOLS } from './mcp/tools/roomTools.js';
import { RUN_TOOLS } from './mcp/tools/runTools.js';
import { AGENT_TASK_SURFACE, codexProfile } from './mcp/tools/agentTaskTools.js';
import { registerEventStreamRoute } from './rest/eventStreamRoute.js';
import { registerRunRoutes, RUN_ROUTES } from './rest/runRoutes.js';
import { PROVIDER_ROUTES, registerProviderRoutes } from './rest/providerRoutes.js';
import type { ModelProviderDeps } from '../service/modelProviders/deps.js';
import { registerSubjectRoutes, SUBJECT_ROUTES, SUBJECTS_PATH } from './rest/subjectRoutes.js';
import { registerRoomRoutes, ROOM_ROUTES } from './rest/roomRoutes.js';
import { ACTION_LANE_PATH_PREFIX, ACTION_LANE_ROUTES, registerActionLaneRoutes } from './ingress/actionRoutes.js';
import { INGRESS_PATH_PREFIX, INGRESS_ROUTES, registerIngressRoutes } from './ingress/ingressRoutes.js';
import type { SubjectService } from '../service/subjects/subjectService.js';
import { registerDiscovery } from './wellKnown.js';
import { registerHealth } from './health.js';
import { registerOpenApiRoute } from './openapi/route.js';
import type { ResourceIdentity } from './resourceIdentity.js';
import { registerBindingRoutes } from './account/bindingRoutes.js';
import { registerAccountPages } from './account/pageRoutes.js';
import { registerObserverRoutes } from './account/observerRoutes.js';
import { registerRoomSourceRoutes } from './account/roomSourceRoutes.js';
import type { AccountDeps } from '../service/accounts/deps.js';
import type { RoomDeps } from '../service/rooms/deps.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Non-secret id of the authenticated credential, for logs and per-principal limits. */
    principalId?: string;
  }
}

export interface AppOptions {
  readonly service: RunService;
  readonly authenticator: Authenticator;
  readonly logger: FastifyBaseLogger;
  readonly bodyLimitBytes: number;
  readonly mcpBodyLimitBytes: number;
  /** HELIX_ROOM_AGENT_BODY_LIMIT: the room facade's own JSON body limit (SLR-16). */
  readonly roomBodyLimitBytes: number;
  /** HELIX_ROOM_INGRESS_BODY_LIMIT: the source ingress lane's own JSON body limit (ING-01). */
  readonly roomIngressBodyLimitBytes: number;
  /** The canonical resource and public origin (src/http/resourceIdentity.ts). */
  readonly identity: ResourceIdentity;
  readonly hostPolicy: HostPolicy;
  readonly authorizationServers: readonly string[];
  /** Rate limits, trusted proxies and the production HTTPS rule (src/http/hardening). */
  readonly hardening: HardeningOptions;
  /** The browser account surface: sign-in, the binding page and its cookie-authenticated API. */
  readonly accounts: { readonly deps: AccountDeps; readonly secureCookies: boolean };
  /** Per-owner model provider registrations (`/api/v1/model-providers`); the routes exist only when given. */
  readonly providers?: ModelProviderDeps;
  /** ADR-0004 subject access (`/api/v1/subjects`); the routes exist only when given. */
  readonly subjects?: SubjectService;
  /** The Shared Live Room facade (`/api/v1/rooms`, the `helix_room_*` tools; docs/rooms.md); exists only when given. */
  readonly rooms?: RoomDeps;
}

/** MCP-01, DSC-04: with the room facade, `/mcp` publishes the run and room tools as one full catalog. */
const ROOM_TOOL_SET = [...ROOM_TOOLS, DEVICE_CHECK_TOOL, ...EMBODIMENT_TOOLS];
/** DC-02, D-03: `/mcp/device-check` publishes that one tool and nothing else; it names no data scope. */
const DEVICE_CHECK_CATALOG = new ToolCatalog([DEVICE_CHECK_TOOL], []);

interface McpCatalogs {
  readonly run: ToolCatalog;
  readonly full: ToolCatalog;
  /** ATP-02, ATP-03: `/mcp/codex` is the same catalog and handlers in the Codex presentation profile. */
  readonly codexRun: ToolCatalog;
  readonly codexFull: ToolCatalog;
}

/**
 * Built once per set of data scopes, so once per process: deriving JSON Schemas is the expensive
 * part of serving tools/list. The start and continue tools declare the data scopes this
 * deployment's sources back, the same set the protected-resource metadata advertises.
 */
const CATALOGS = new Map<string, McpCatalogs>();
const catalogsFor = (dataScopes: readonly string[]): McpCatalogs => {
  const key = dataScopes.join(' ');
  let catalogs = CATALOGS.get(key);
  if (catalogs === undefined) {
    catalogs = {
      run: new ToolCatalog([...RUN_TOOLS, ...AGENT_TASK_SURFACE], dataScopes),
      full: new ToolCatalog([...RUN_TOOLS, ...AGENT_TASK_SURFACE, ...ROOM_TOOL_SET], dataScopes),
      codexRun: new ToolCatalog(codexProfile([...RUN_TOOLS, ...AGENT_TASK_SURFACE]), dataScopes),
      codexFull: new ToolCatalog(codexProfile([...RUN_TOOLS, ...AGENT_TASK_SURFACE, ...ROOM_TOOL_SET]), dataScopes),
    };
    CATALOGS.set(key, catalogs);
  }
  return catalogs;
};

/** The Fastify instance: logging, ids, limits, timeouts, and router-level refusals in the error vocabulary. */
const createFastify = (options: AppOptions): FastifyInstance => {
  return Fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    bodyLimit: options.bodyLimitBytes,
    genReqId: (req) => pickRequestId(req.headers['x-request-id']),
    requestIdHeader: false,
    return503OnClosing: true,
    // Event streams keep their connections busy; shutdown (after running turns finish) closes them all.
    forceCloseConnections: true,
    // run_id may be 204 characters (an account id 200); longer path parameters are refused by frameworkErrors below.
    routerOptions: { maxParamLength: 256 },
    // Router-level refusals (an over-long parameter, a malformed %-escape) happen before any hook:
    // answer them in the error vocabulary, with the usual headers, echoing nothing of the path.
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-Id', request.id).header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      let err: HelixError;
      try {
        assertHostAndOrigin(request, options.hostPolicy);
        err = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? overlongParameter(request.url) : toHelixError(error);
      } catch (refused) {
        err = toHelixError(refused);
      }
      if (err.code === 'internal_error') err = new HelixError('invalid_request');
      void sendError(reply, err, resourceMetadataUrl(request, options.identity));
    },
    trustProxy: fastifyTrustProxy(options.hardening.trustProxy),
    ...serverTimeouts(options.hardening.httpLimits),
    clientErrorHandler: answerClientError,
  });
};

/** What every request goes through: tracing, the JSON parser, common headers, hardening, the request log, errors, 404/405. */
const registerCommonHandling = (app: FastifyInstance, options: AppOptions): void => {
  registerRequestTracing(app);
  // First, so that every refusal below (403 host, 429, 404) carries the headers too.
  registerSecurityHeaders(app);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json'], { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  // Callback hooks, here and in registerHardening: an async hook costs a promise and its ticks on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    reply.header('Cache-Control', 'no-store');
    reply.header('Pragma', 'no-cache');
    settle(done, () => assertHostAndOrigin(request, options.hostPolicy));
  });
  registerHardening(app, options.hardening);

  registerRequestLog(app, options.logger);

  app.setErrorHandler((err, request, reply) => {
    const helixError = toHelixError(err);
    // A mutation refused before its route ran (413, 415, bad JSON) was not replayed either.
    if (isApiMutation(request.method, request.url) && !reply.hasHeader('idempotency-replayed'))
      reply.header('Idempotency-Replayed', 'false');
    if (helixError.code === 'internal_error')
      request.log.error({ err: { message: (err as Error).message, stack: (err as Error).stack } }, 'unhandled error');
    return sendError(reply, helixError, resourceMetadataUrl(request, options.identity));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const routes = [
      ...RUN_ROUTES,
      ...(options.providers === undefined ? [] : PROVIDER_ROUTES),
      ...(options.subjects === undefined ? [] : SUBJECT_ROUTES),
      ...(options.rooms === undefined ? [] : [...ROOM_ROUTES, ...INGRESS_ROUTES, ...ACTION_LANE_ROUTES]),
    ];
    const allowed = routes.filter((r) => matchesPath(r.url, path)).map((r) => r.method);
    if (allowed.length > 0) reply.header('Allow', [...new Set(allowed)].join(', '));
    const err =
      allowed.length > 0 ? new HelixError('method_not_allowed') : new HelixError('not_found', {}, 'No such endpoint.');
    return sendError(reply, err, resourceMetadataUrl(request, options.identity));
  });
};

/**
 * The browser surfaces (bindings, room sources, the observer lane, the account and console pages),
 * the only ones that read or set cookies, in one scope with the cookie parser: an API or MCP request
 * does not pay for parsing a Cookie header nobody reads.
 */
const registerBrowserSurfaces = (app: FastifyInstance, options: AppOptions): void => {
  void app.register(async (browser) => {
    // Parses Cookie into request.cookies (the session is read from it) and serialises reply.setCookie.
    await browser.register(fastifyCookie);
    registerBindingRoutes(browser, options.accounts.deps);
    if (options.rooms !== undefined)
      registerRoomSourceRoutes(browser, {
        accounts: options.accounts.deps,
        rooms: options.rooms,
        identity: options.identity,
      });
    if (options.rooms !== undefined)
      registerObserverRoutes(browser, {
        accounts: options.accounts.deps,
        chats: options.rooms,
        identity: options.identity,
      });
    // Its own encapsulated scope: the only place that parses HTML form posts.
    await browser.register(async (scope) =>
      registerAccountPages(scope, {
        ...options.accounts,
        identity: options.identity,
        runs: options.service.deps,
        ...(options.rooms === undefined ? {} : { rooms: options.rooms }),
      }),
    );
  });
};

/** The surfaces: health, the contract, discovery, REST, the browser account pages and MCP. */
const registerSurfaces = (app: FastifyInstance, options: AppOptions): void => {
  // One source of truth: the scopes whose sources admission can admit (check 2, scope_unavailable).
  const available = options.service.deps.config.scopes.available;
  const catalogs = catalogsFor(dataOAuthScopesOf(available));
  registerHealth(app);
  registerOpenApiRoute(app);
  registerDiscovery(app, {
    identity: options.identity,
    authorizationServers: options.authorizationServers,
    scopesSupported: advertisedOAuthScopes(available),
  });
  registerRunRoutes(app, options.service, options.authenticator);
  registerEventStreamRoute(app, options.service, options.authenticator);
  if (options.providers !== undefined) registerProviderRoutes(app, options.providers, options.authenticator);
  if (options.subjects !== undefined) registerSubjectRoutes(app, options.subjects, options.authenticator);
  if (options.rooms !== undefined)
    registerRoomRoutes(app, options.rooms, options.authenticator, options.roomBodyLimitBytes);
  if (options.rooms !== undefined) registerIngressRoutes(app, options.rooms, options.roomIngressBodyLimitBytes);
  if (options.rooms !== undefined) registerActionLaneRoutes(app, options.rooms, options.roomIngressBodyLimitBytes);
  registerBrowserSurfaces(app, options);
  registerMcpRoute(app, {
    service: options.service,
    authenticator: options.authenticator,
    catalog: options.rooms === undefined ? catalogs.run : catalogs.full,
    rooms: options.rooms,
    identity: options.identity,
    bodyLimitBytes: options.mcpBodyLimitBytes,
  });
  registerMcpRoute(app, {
    kind: 'codex',
    service: options.service,
    authenticator: options.authenticator,
    catalog: options.rooms === undefined ? catalogs.codexRun : catalogs.codexFull,
    rooms: options.rooms,
    identity: options.identity,
    bodyLimitBytes: options.mcpBodyLimitBytes,
  });
  if (options.rooms !== undefined)
    registerMcpRoute(app, {
      kind: 'device_check',
      service: options.service,
      authenticator: options.authenticator,
      catalog: DEVICE_CHECK_CATALOG,
      rooms: options.rooms,
      identity: options.identity,
      bodyLimitBytes: options.mcpBodyLimitBytes,
    });
};

/** Builds the Fastify app: hardening hooks, the REST routes, health. No I/O until `listen`. */
export const buildApp = (options: AppOptions): FastifyInstance => {
  const app = createFastify(options);
  recordRouteTable(app);
  registerCommonHandling(app, options);
  registerSurfaces(app, options);
  return app;
};

/** A path parameter longer than any id: a room id or binding ref that cannot exist is simply not found (RREST-03). */
const overlongParameter = (url: string): HelixError => {
  if (url.startsWith(SUBJECTS_PATH)) return new HelixError('invalid_request');
  if (isRoomPath(url) || url.startsWith(INGRESS_PATH_PREFIX) || url.startsWith(ACTION_LANE_PATH_PREFIX))
    return new HelixError('not_found');
  return new HelixError('invalid_run_id');
};

const isApiMutation = (method: string, url: string): boolean =>
  (method === 'POST' || method === 'DELETE') && url.startsWith('/api/');

const matchesPath = (pattern: string, path: string): boolean =>
  new RegExp(`^${pattern.replace(/:[a-z_]+/g, '[^/]+')}$`).test(path);
