import type { FastifyInstance } from 'fastify';
import { HelixError } from '../../domain/errors.js';
import type { RoomSourceRecord } from '../../domain/roomSources.js';
import { pollActions } from '../../service/roomActions/pollActions.js';
import { recordActionResult, recordControlResult } from '../../service/roomActions/recordLaneResult.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import type { IngressResult } from '../../service/roomIngress/ingressRequest.js';
import { authenticateActionCredential } from '../../service/roomSources/authenticateActionCredential.js';
import { enforceBindingLimit } from '../hardening/rateLimits.js';
import { laneBearerOf } from './ingressRoutes.js';

/** §23.3, M-02: the action lane, mounted at `/api/room-actions` (connectors/minecraft/src/actionWire.ts ACTION_PREFIX). */
export const ACTION_LANE_PATH_PREFIX = '/api/room-actions/';
const ACTION_BINDING_PATH = `${ACTION_LANE_PATH_PREFIX}v1/bindings/:binding_id`;

type Params = { binding_id: string };

interface ActionLaneRoute {
  readonly method: 'POST';
  readonly url: string;
  readonly handler: (deps: RoomDeps, source: RoomSourceRecord, body: unknown) => Promise<IngressResult>;
}

export const ACTION_LANE_ROUTES: readonly ActionLaneRoute[] = [
  { method: 'POST', url: `${ACTION_BINDING_PATH}/actions/pending`, handler: pollActions },
  { method: 'POST', url: `${ACTION_BINDING_PATH}/actions/result`, handler: recordActionResult },
  { method: 'POST', url: `${ACTION_BINDING_PATH}/controls/result`, handler: recordControlResult },
];

/**
 * Each row calls one use case of src/service/roomActions/ for the binding whose ACTION credential
 * was checked first (never the source bearer: SRC-07, M-02), under the ingress lane's body limit
 * and per-binding rate limit. Answers say whether they are a retry's stored answer.
 */
export const registerActionLaneRoutes = (app: FastifyInstance, deps: RoomDeps, bodyLimitBytes: number): void => {
  for (const route of ACTION_LANE_ROUTES) {
    app.route<{ Params: Params }>({
      method: route.method,
      url: route.url,
      bodyLimit: bodyLimitBytes,
      handler: async (request, reply) => {
        reply.header('Idempotency-Replayed', 'false');
        const credential = laneBearerOf(request);
        if (credential === undefined) throw new HelixError('unauthorized');
        const source = await authenticateActionCredential(deps, request.params.binding_id, credential);
        request.principalId = source.sourceId;
        enforceBindingLimit(request, source.sourceId);
        const result = await route.handler(deps, source, request.body);
        reply.header('Idempotency-Replayed', result.replayed ? 'true' : 'false');
        return reply.code(result.status).send(result.body);
      },
    });
  }
};
