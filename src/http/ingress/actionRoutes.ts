import type { FastifyInstance } from 'fastify';
import { HelixError } from '../../domain/errors.js';
import { pollActions } from '../../service/roomActions/pollActions.js';
import { recordActionResult, recordControlResult } from '../../service/roomActions/recordLaneResult.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import { authenticateActionCredential } from '../../service/roomSources/authenticateActionCredential.js';
import { type LaneRoute, registerLaneRoutes } from './ingressRoutes.js';

/** §23.3, M-02: the action lane, mounted at `/api/room-actions` (connectors/minecraft/src/actionWire.ts ACTION_PREFIX). */
export const ACTION_LANE_PATH_PREFIX = '/api/room-actions/';
const ACTION_BINDING_PATH = `${ACTION_LANE_PATH_PREFIX}v1/bindings/:binding_id`;

export const ACTION_LANE_ROUTES: readonly LaneRoute[] = [
  { method: 'POST', url: `${ACTION_BINDING_PATH}/actions/pending`, handler: pollActions },
  { method: 'POST', url: `${ACTION_BINDING_PATH}/actions/result`, handler: recordActionResult },
  { method: 'POST', url: `${ACTION_BINDING_PATH}/controls/result`, handler: recordControlResult },
];

/** M-02, SRC-07: the binding's ACTION credential, never the source bearer; none at all is `unauthorized`. */
const authenticateAction = (deps: RoomDeps, bindingId: string, bearer: string | undefined) => {
  if (bearer === undefined) throw new HelixError('unauthorized');
  return authenticateActionCredential(deps, bindingId, bearer);
};

/** §23.3: the action lane's use cases (src/service/roomActions/), under the ingress lane's body limit and rate limits. */
export const registerActionLaneRoutes = (app: FastifyInstance, deps: RoomDeps, bodyLimitBytes: number): void =>
  registerLaneRoutes(app, deps, bodyLimitBytes, ACTION_LANE_ROUTES, authenticateAction);
