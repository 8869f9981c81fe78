import type { FastifyInstance } from 'fastify';
import { ClaimDeliveryRequestSchema } from '../../api/roomSourceSchemas.js';
import type { AccountDeps } from '../../service/accounts/deps.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import { claimDelivery } from '../../service/roomSources/claimDelivery.js';
import { createOwnedSource } from '../../service/roomSources/createOwnedSource.js';
import { listOwnedSources } from '../../service/roomSources/listOwnedSources.js';
import { revokeSource } from '../../service/roomSources/revokeSource.js';
import { rotateSource } from '../../service/roomSources/rotateSource.js';
import { parseInput } from '../../service/validate.js';
import type { ResourceIdentity } from '../resourceIdentity.js';
import { type BrowserRoute, registerBrowserRoutes } from './browserJsonRoutes.js';

/** §22 [ref] browser routes, mounted under `/api/agi`. */
const REALTIME_PATH = '/api/agi/realtime';
export const SOURCE_BINDINGS_PATH = `${REALTIME_PATH}/rooms/:room_id/source-bindings`;
const SOURCE_BINDING_PATH = `${SOURCE_BINDINGS_PATH}/:binding_id`;
export const SOURCE_CLAIM_PATH = `${REALTIME_PATH}/room-source-credential-deliveries/claim`;
/** The JSON bodies here are a create request or one claim handle. */
const BODY_LIMIT = 4096;

type Params = { room_id: string; binding_id: string };

/**
 * The console's source manager (SRC-06) and credential claim (SRC-04, SRC-05) as a table; each row
 * calls one use case of src/service/roomSources/ as the signed-in account. DELETE and `/revoke` are
 * the same revocation (§22 names both).
 */
export const ROOM_SOURCE_BROWSER_ROUTES: readonly BrowserRoute<RoomDeps, Params>[] = [
  {
    method: 'GET',
    url: SOURCE_BINDINGS_PATH,
    status: 200,
    input: 'none',
    handler: (d, a, r) => listOwnedSources(d, a, r.params.room_id),
  },
  {
    method: 'POST',
    url: SOURCE_BINDINGS_PATH,
    status: 201,
    input: 'body',
    handler: (d, a, r) => createOwnedSource(d, a, r.params.room_id, r.body),
  },
  {
    method: 'POST',
    url: `${SOURCE_BINDING_PATH}/rotate`,
    status: 200,
    input: 'none',
    handler: (d, a, r) => rotateSource(d, a, r.params.binding_id, r.params.room_id),
  },
  {
    method: 'POST',
    url: `${SOURCE_BINDING_PATH}/revoke`,
    status: 200,
    input: 'none',
    handler: (d, a, r) => revokeSource(d, a, r.params.binding_id, r.params.room_id),
  },
  {
    method: 'DELETE',
    url: SOURCE_BINDING_PATH,
    status: 200,
    input: 'none',
    handler: (d, a, r) => revokeSource(d, a, r.params.binding_id, r.params.room_id),
  },
  {
    method: 'POST',
    url: SOURCE_CLAIM_PATH,
    status: 200,
    input: 'body',
    handler: (d, a, r) => claimDelivery(d, a, parseInput(ClaimDeliveryRequestSchema, r.body).claim_handle),
  },
];

export interface RoomSourceBrowserOptions {
  readonly accounts: AccountDeps;
  readonly rooms: RoomDeps;
  readonly identity: ResourceIdentity;
}

/** The table above as same-origin, cookie-authenticated JSON routes (src/http/account/browserJsonRoutes.ts). */
export const registerRoomSourceRoutes = (app: FastifyInstance, options: RoomSourceBrowserOptions): void =>
  registerBrowserRoutes(app, ROOM_SOURCE_BROWSER_ROUTES, {
    accounts: options.accounts,
    deps: options.rooms,
    identity: options.identity,
    surface: 'room_sources',
    bodyLimit: BODY_LIMIT,
  });
