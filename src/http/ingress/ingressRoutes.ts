import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HelixError } from '../../domain/errors.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import type { IngressResult } from '../../service/roomIngress/ingressRequest.js';
import { pollProbes } from '../../service/roomIngress/pollProbes.js';
import { recordHeartbeat } from '../../service/roomIngress/recordHeartbeat.js';
import { recordProbeResult } from '../../service/roomIngress/recordProbeResult.js';
import { recordWorldEvents } from '../../service/roomIngress/recordWorldEvents.js';
import { authenticateIngressSource } from '../../service/roomIngress/sourceCredential.js';
import { sourceStatus } from '../../service/roomIngress/sourceStatus.js';
import { submitManifest } from '../../service/roomIngress/submitManifest.js';
import { enforceBindingLimit } from '../hardening/rateLimits.js';
import { credentialsOf } from '../principalHook.js';

/** ING-01, §22: the source ingress lane, mounted at `/api/room-ingress` (docs/rooms.md "Source ingress"). */
export const INGRESS_PATH_PREFIX = '/api/room-ingress/';
export const INGRESS_BINDING_PATH = `${INGRESS_PATH_PREFIX}v1/bindings/:binding_id`;

type Params = { binding_id: string };

/** One route of a connector lane (the ingress lane here, the action lane in ./actionRoutes.ts). */
export interface LaneRoute {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly handler: (deps: RoomDeps, source: RoomSourceRecord, body: unknown) => Promise<IngressResult>;
}

export const INGRESS_ROUTES: readonly LaneRoute[] = [
  { method: 'POST', url: `${INGRESS_BINDING_PATH}/manifest`, handler: submitManifest },
  { method: 'POST', url: `${INGRESS_BINDING_PATH}/heartbeat`, handler: recordHeartbeat },
  { method: 'POST', url: `${INGRESS_BINDING_PATH}/world-events/batch`, handler: recordWorldEvents },
  { method: 'POST', url: `${INGRESS_BINDING_PATH}/probes/pending`, handler: pollProbes },
  { method: 'POST', url: `${INGRESS_BINDING_PATH}/probes/result`, handler: recordProbeResult },
  {
    method: 'GET',
    url: `${INGRESS_BINDING_PATH}/status`,
    handler: async (deps, source) => ({ status: 200, body: await sourceStatus(deps, source), replayed: false }),
  },
];

const SCHEME = /^Bearer (\S+)$/;

/**
 * SRC-07: the lane's credential in the Authorization header is the only credential; a second header
 * or a token in the query is refused, a cookie is never read. Whether the bearer is this lane's
 * kind at all (an `hlx_` key, an OAuth token or the other lane's credential is not) is the lane's
 * credential check's `invalid_token`.
 */
const laneBearerOf = (request: FastifyRequest): string | undefined => {
  const credentials = credentialsOf(request);
  if (credentials.queryToken || (credentials.authorizationHeaders ?? 0) > 1)
    throw new HelixError('multiple_credentials');
  if (credentials.authorization === undefined) return undefined;
  return SCHEME.exec(credentials.authorization.trim())?.[1] ?? '';
};

/** How a lane authenticates its binding from the Authorization bearer (undefined when absent). */
export type LaneAuthentication = (
  deps: RoomDeps,
  bindingId: string,
  bearer: string | undefined,
) => Promise<RoomSourceRecord>;

/**
 * Each row calls one use case for the binding whose lane credential was checked first, under the
 * lane's body limit and the per-binding rate limit. The check is an onRequest hook, so it runs
 * before Fastify reads the body: a stranger's bad content type, oversize body or broken JSON is
 * `401` like any other request of theirs, never a 415/413/400 that teaches them the body rules
 * (SRC-07). POST answers say whether they are a retry's stored answer.
 */
export const registerLaneRoutes = (
  app: FastifyInstance,
  deps: RoomDeps,
  bodyLimitBytes: number,
  routes: readonly LaneRoute[],
  authenticate: LaneAuthentication,
): void => {
  const sources = new WeakMap<FastifyRequest, RoomSourceRecord>();
  for (const route of routes) {
    app.route<{ Params: Params }>({
      method: route.method,
      url: route.url,
      bodyLimit: bodyLimitBytes,
      onRequest: async (request, reply) => {
        if (route.method === 'POST') reply.header('Idempotency-Replayed', 'false');
        const source = await authenticate(deps, request.params.binding_id, laneBearerOf(request));
        request.principalId = source.sourceId;
        enforceBindingLimit(request, source.sourceId);
        sources.set(request, source);
      },
      handler: async (request, reply) => {
        const source = sources.get(request);
        if (source === undefined) throw new HelixError('internal_error');
        const result = await route.handler(deps, source, request.body);
        if (route.method === 'POST') reply.header('Idempotency-Replayed', result.replayed ? 'true' : 'false');
        return reply.code(result.status).send(result.body);
      },
    });
  }
};

/** ING-01: the ingress lane, its use cases in src/service/roomIngress/, the source bearer only. */
export const registerIngressRoutes = (app: FastifyInstance, deps: RoomDeps, bodyLimitBytes: number): void =>
  registerLaneRoutes(app, deps, bodyLimitBytes, INGRESS_ROUTES, authenticateIngressSource);
