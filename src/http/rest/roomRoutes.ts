import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import { containsCredential } from '../../domain/credentialShape.js';
import { HelixError } from '../../domain/errors.js';
import { bindRun } from '../../service/rooms/bindRun.js';
import { claimChatBinding } from '../../service/rooms/claimChatBinding.js';
import { createRoom } from '../../service/rooms/createRoom.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import type { ServiceResult } from '../../service/result.js';
import { inspectRoom } from '../../service/rooms/inspectRoom.js';
import { listRooms } from '../../service/rooms/listRooms.js';
import { requestCommand } from '../../service/rooms/requestCommand.js';
import { unbindChat } from '../../service/rooms/unbindChat.js';
import { unbindRun } from '../../service/rooms/unbindRun.js';
import { createSource } from '../../service/roomSources/createSource.js';
import { deviceCheck } from '../../service/roomSources/deviceCheck.js';
import { listSources } from '../../service/roomSources/listSources.js';
import { enforcePrincipalLimit } from '../hardening/rateLimits.js';
import { authenticateRequest } from '../principalHook.js';
import { idempotencyKeyOf } from './idempotencyHeader.js';

export const ROOMS_PATH = '/api/v1/rooms';

type Params = { room_id: string; binding_ref: string };
type RoomRequest = FastifyRequest<{ Params: Params }>;

interface RoomRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  /** Answers `Idempotency-Replayed` (SLR-04). */
  readonly mutation: boolean;
  /** WD-01: the opaque ref in the path is the only input; a body or a query string is refused. */
  readonly withdrawal?: true;
  /** SLR-10: the one body field that may hold a credential-shaped value (the browser-issued chat claim). */
  readonly credentialField?: string;
  readonly handler: (deps: RoomDeps, principal: Principal, request: RoomRequest) => Promise<ServiceResult<unknown>>;
}

/**
 * The room facade (docs/spec/shared-live-room-requirements.md §4, RREST-01..12) as a table; each
 * row calls one use case of src/service/rooms/. RREST-12: the literal `run-bindings` and
 * `chat-bindings` segments are static routes, which the router always prefers to `:room_id`; the
 * room-id format cannot spell them either. There is no close operation (RREST-11). The source
 * rows (RREST-08, RREST-09) call src/service/roomSources/.
 */
export const ROOM_ROUTES: readonly RoomRoute[] = [
  { method: 'GET', url: ROOMS_PATH, mutation: false, handler: (d, p) => listRooms(d, p) },
  {
    method: 'POST',
    url: ROOMS_PATH,
    mutation: true,
    handler: (d, p, r) => createRoom(d, p, idempotencyKeyOf(r), r.body),
  },
  { method: 'POST', url: `${ROOMS_PATH}/run-bindings`, mutation: true, handler: (d, p, r) => bindRun(d, p, r.body) },
  {
    method: 'DELETE',
    url: `${ROOMS_PATH}/run-bindings/:binding_ref`,
    mutation: true,
    withdrawal: true,
    handler: (d, p, r) => unbindRun(d, p, r.params.binding_ref),
  },
  {
    method: 'POST',
    url: `${ROOMS_PATH}/chat-bindings/claim`,
    mutation: true,
    credentialField: 'claim_handle',
    handler: (d, p, r) => claimChatBinding(d, p, r.body),
  },
  {
    method: 'DELETE',
    url: `${ROOMS_PATH}/chat-bindings/:binding_ref`,
    mutation: true,
    withdrawal: true,
    handler: (d, p, r) => unbindChat(d, p, r.params.binding_ref),
  },
  {
    method: 'GET',
    url: `${ROOMS_PATH}/:room_id`,
    mutation: false,
    handler: (d, p, r) => inspectRoom(d, p, r.params.room_id),
  },
  {
    method: 'POST',
    url: `${ROOMS_PATH}/:room_id/commands`,
    mutation: true,
    handler: (d, p, r) => requestCommand(d, p, r.params.room_id, r.body),
  },
  {
    method: 'GET',
    url: `${ROOMS_PATH}/:room_id/sources`,
    mutation: false,
    handler: (d, p, r) => listSources(d, p, r.params.room_id),
  },
  {
    method: 'POST',
    url: `${ROOMS_PATH}/:room_id/sources`,
    mutation: true,
    handler: (d, p, r) => createSource(d, p, r.params.room_id, idempotencyKeyOf(r), r.body),
  },
  // DC-02: the Device Check over REST too, for every room of the caller or one (a static segment, like run-bindings).
  {
    method: 'GET',
    url: `${ROOMS_PATH}/device-check`,
    mutation: false,
    handler: (d, p) => deviceCheck(d, p, undefined),
  },
  {
    method: 'GET',
    url: `${ROOMS_PATH}/:room_id/device-check`,
    mutation: false,
    handler: (d, p, r) => deviceCheck(d, p, r.params.room_id),
  },
];

const refuse = (message: string): HelixError =>
  new HelixError('invalid_request', { issues: [{ path: '(request)', message }] });

/** WD-01: "The request body and query string must be empty"; nothing else can name what is withdrawn. */
const assertEmptyInput = (request: FastifyRequest): void => {
  if (request.body !== undefined) throw refuse('a withdrawal takes no body');
  if (request.url.includes('?')) throw refuse('a withdrawal takes no query string');
};

/**
 * SLR-08: a key or token pasted into a room body (values and object keys, at any depth) is refused
 * unseen, before any use case runs. SLR-10: the claim operation's own handle field is the exception.
 */
const assertNoCredential = (route: RoomRoute, body: unknown): void => {
  let probed = body;
  if (route.credentialField !== undefined && typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { [route.credentialField]: _exempt, ...rest } = body as Record<string, unknown>;
    probed = rest;
  }
  if (containsCredential(probed)) throw refuse('credential-shaped value refused');
};

const sendResult = (reply: FastifyReply, route: RoomRoute, result: ServiceResult<unknown>): FastifyReply => {
  if (route.mutation) reply.header('Idempotency-Replayed', result.replayed ? 'true' : 'false');
  const body = result.body as { room?: { room_id?: unknown } };
  if (route.url === ROOMS_PATH && result.status === 201 && typeof body.room?.room_id === 'string')
    reply.header('Location', `${ROOMS_PATH}/${encodeURIComponent(body.room.room_id)}`);
  return reply.code(result.status).send(result.body);
};

/**
 * Bearer only (SLR-02): the authenticator reads the Authorization header and nothing else; a
 * missing or bad one is 401 with the challenge (src/http/errors.ts). The request's pre-auth budget
 * and its body limit are the room facade's own (SLR-16).
 */
export const registerRoomRoutes = (
  app: FastifyInstance,
  deps: RoomDeps,
  authenticator: Authenticator,
  bodyLimitBytes: number,
): void => {
  for (const route of ROOM_ROUTES) {
    app.route<{ Params: Params }>({
      method: route.method,
      url: route.url,
      bodyLimit: bodyLimitBytes,
      handler: async (request, reply) => {
        // Every mutation response says whether it was replayed, refusals included.
        if (route.mutation) reply.header('Idempotency-Replayed', 'false');
        const principal = await authenticateRequest(authenticator, request);
        request.principalId = principal.credentialId;
        enforcePrincipalLimit(request, principal, 'rooms');
        if (route.withdrawal === true) assertEmptyInput(request);
        assertNoCredential(route, request.body);
        return sendResult(reply, route, await route.handler(deps, principal, request));
      },
    });
  }
};
