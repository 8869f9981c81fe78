import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ClaimDeliveryRequestSchema } from '../../api/roomSourceSchemas.js';
import { HelixError } from '../../domain/errors.js';
import type { AccountDeps } from '../../service/accounts/deps.js';
import { requireSessionAccount } from '../../service/accounts/sessionAccount.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import { claimDelivery } from '../../service/roomSources/claimDelivery.js';
import { createOwnedSource } from '../../service/roomSources/createOwnedSource.js';
import { listOwnedSources } from '../../service/roomSources/listOwnedSources.js';
import { revokeSource } from '../../service/roomSources/revokeSource.js';
import { rotateSource } from '../../service/roomSources/rotateSource.js';
import { parseInput } from '../../service/validate.js';
import { enforceAccountLimit } from '../hardening/rateLimits.js';
import type { ResourceIdentity } from '../resourceIdentity.js';
import { sessionCookieOf } from './cookies.js';
import { requireSameOrigin } from './sameOrigin.js';

/** §22 [ref] browser routes, mounted under `/api/agi`. */
const REALTIME_PATH = '/api/agi/realtime';
export const SOURCE_BINDINGS_PATH = `${REALTIME_PATH}/rooms/:room_id/source-bindings`;
const SOURCE_BINDING_PATH = `${SOURCE_BINDINGS_PATH}/:binding_id`;
export const SOURCE_CLAIM_PATH = `${REALTIME_PATH}/room-source-credential-deliveries/claim`;
/** The JSON bodies here are a create request or one claim handle. */
const BODY_LIMIT = 4096;

type Params = { room_id: string; binding_id: string };
type BrowserRequest = FastifyRequest<{ Params: Params }>;

interface BrowserRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly status: number;
  /** Rotation, revocation and listing name everything in the path: a body or a query string is refused. */
  readonly takesBody: boolean;
  readonly handler: (deps: RoomDeps, accountId: string, request: BrowserRequest) => Promise<unknown>;
}

/**
 * The console's source manager (SRC-06) and credential claim (SRC-04, SRC-05) as a table; each row
 * calls one use case of src/service/roomSources/ as the signed-in account. DELETE and `/revoke` are
 * the same revocation (§22 names both).
 */
export const ROOM_SOURCE_BROWSER_ROUTES: readonly BrowserRoute[] = [
  {
    method: 'GET',
    url: SOURCE_BINDINGS_PATH,
    status: 200,
    takesBody: false,
    handler: (d, a, r) => listOwnedSources(d, a, r.params.room_id),
  },
  {
    method: 'POST',
    url: SOURCE_BINDINGS_PATH,
    status: 201,
    takesBody: true,
    handler: (d, a, r) => createOwnedSource(d, a, r.params.room_id, r.body),
  },
  {
    method: 'POST',
    url: `${SOURCE_BINDING_PATH}/rotate`,
    status: 200,
    takesBody: false,
    handler: (d, a, r) => rotateSource(d, a, r.params.binding_id, r.params.room_id),
  },
  {
    method: 'POST',
    url: `${SOURCE_BINDING_PATH}/revoke`,
    status: 200,
    takesBody: false,
    handler: (d, a, r) => revokeSource(d, a, r.params.binding_id, r.params.room_id),
  },
  {
    method: 'DELETE',
    url: SOURCE_BINDING_PATH,
    status: 200,
    takesBody: false,
    handler: (d, a, r) => revokeSource(d, a, r.params.binding_id, r.params.room_id),
  },
  {
    method: 'POST',
    url: SOURCE_CLAIM_PATH,
    status: 200,
    takesBody: true,
    handler: (d, a, r) => claimDelivery(d, a, parseInput(ClaimDeliveryRequestSchema, r.body).claim_handle),
  },
];

const assertNoInput = (request: FastifyRequest): void => {
  if (request.body !== undefined || request.url.includes('?'))
    throw new HelixError('invalid_request', { issues: [{ path: '(request)', message: 'takes no body or query' }] });
};

export interface RoomSourceBrowserOptions {
  readonly accounts: AccountDeps;
  readonly rooms: RoomDeps;
  readonly identity: ResourceIdentity;
}

/**
 * Same-origin, cookie-authenticated JSON routes: never a bearer surface. In order: same origin
 * (src/http/account/sameOrigin.ts), the session re-resolved (401 without one), the account's
 * per-minute budget (SRC-10; the per-IP one ran before routing), then the use case. Every answer
 * is `Cache-Control: no-store` (src/http/app.ts), which the claim's show-once bearer needs.
 */
export const registerRoomSourceRoutes = (app: FastifyInstance, options: RoomSourceBrowserOptions): void => {
  for (const route of ROOM_SOURCE_BROWSER_ROUTES) {
    app.route<{ Params: Params }>({
      method: route.method,
      url: route.url,
      bodyLimit: BODY_LIMIT,
      handler: async (request, reply: FastifyReply) => {
        requireSameOrigin(request, options.identity);
        const accountId = await requireSessionAccount(options.accounts, sessionCookieOf(request));
        enforceAccountLimit(request, accountId);
        if (!route.takesBody) assertNoInput(request);
        return reply.code(route.status).send(await route.handler(options.rooms, accountId, request));
      },
    });
  }
};
