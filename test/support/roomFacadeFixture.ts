import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NON_AUTHORITY_FLAGS } from '../../src/api/flags.js';
import { OAUTH_SCOPES } from '../../src/domain/scopes.js';

/**
 * A loopback stand-in for the Shared Live Room REST facade, for the live acceptance harness's
 * network tests. The facade is being built on another branch and is not on main yet; this serves
 * only the routes the harness calls, with the status codes and bodies of
 * docs/spec/shared-live-room-requirements.md §4, §5 and §22, and forwards /api/v1/agent-runs to a
 * real Helix so runs are started, replayed and cancelled by the real service. Once the facade
 * lands, the lead adds an end-to-end run of the harness against `helix serve`.
 *
 * `script` decides, per route and per call, what happens: `ok`; `lose` (the change is committed,
 * then the socket is destroyed before any answer, a lost response); `fail` (500, nothing done);
 * `unknown` (409 `outcome_unknown`, nothing done); `hang` (no answer at all). Calls beyond the
 * list are `ok`.
 */
export const ROUTES = ['room.create', 'run.start', 'room.bind', 'room.unbind', 'run.cancel', 'room.command'] as const;
export type Route = (typeof ROUTES)[number];
export type Behaviour = 'ok' | 'lose' | 'fail' | 'unknown' | 'hang';

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
}

export interface Binding {
  readonly ref: string;
  readonly roomId: string;
  readonly runId: string;
  active: boolean;
}

const ROOMS_METADATA = '/.well-known/oauth-protected-resource/api/v1/rooms';
const receipt = (kind: string, fields: Record<string, unknown>) => ({
  schema: `helix.shared_live_room.${kind}_receipt.v1`,
  ...fields,
  ...NON_AUTHORITY_FLAGS,
});
const roomError = (status: number, code: string, details?: Record<string, unknown>): Answer => ({
  status,
  body: { schema: 'helix.shared_live_room.error.v1', code, message: code, status, ...(details ? { details } : {}) },
});

const routeOf = (method: string, path: string): Route | undefined => {
  if (method === 'POST' && path === '/api/v1/rooms') return 'room.create';
  if (method === 'POST' && path === '/api/v1/agent-runs') return 'run.start';
  if (method === 'POST' && path === '/api/v1/rooms/run-bindings') return 'room.bind';
  if (method === 'DELETE' && path.startsWith('/api/v1/rooms/run-bindings/')) return 'room.unbind';
  if (method === 'POST' && /^\/api\/v1\/agent-runs\/[^/]+\/cancel$/.test(path)) return 'run.cancel';
  if (method === 'POST' && /^\/api\/v1\/rooms\/[^/]+\/commands$/.test(path)) return 'room.command';
  return undefined;
};

/** The room state the stand-in keeps: rooms by idempotency key, run-room bindings by reference. */
const roomState = () => {
  const rooms = new Map<string, { roomId: string; body: string }>();
  const bindings = new Map<string, Binding>();
  const create = (key: string | undefined, body: string): Answer => {
    if (key === undefined || key.length < 8) return roomError(400, 'invalid_request');
    const known = rooms.get(key);
    if (known !== undefined && known.body !== body) return roomError(422, 'idempotency_conflict');
    const roomId = known?.roomId ?? `room_${rooms.size + 1}`;
    if (known === undefined) rooms.set(key, { roomId, body });
    const replayed = known === undefined ? 'false' : 'true';
    return {
      status: 201,
      body: receipt('create', { room: { room_id: roomId } }),
      headers: { 'idempotency-replayed': replayed },
    };
  };
  const bind = (body: { room_id?: string; run_id?: string }): Answer => {
    const { room_id: roomId, run_id: runId } = body;
    if (roomId === undefined || runId === undefined) return roomError(400, 'invalid_request');
    const active = [...bindings.values()].find((b) => b.runId === runId && b.active);
    if (active !== undefined && active.roomId !== roomId) return roomError(409, 'run_already_bound');
    if (active !== undefined) return { status: 200, body: receipt('run_bind', { binding_ref: active.ref }) };
    const ref = `rrb_${bindings.size + 1}`;
    bindings.set(ref, { ref, roomId, runId, active: true });
    return { status: 201, body: receipt('run_bind', { binding_ref: ref }) };
  };
  const unbind = (ref: string, body: string): Answer => {
    if (body !== '') return roomError(400, 'invalid_request');
    const binding = bindings.get(ref);
    if (binding === undefined) return roomError(404, 'not_found');
    const outcome = binding.active ? 'revoked' : 'already_revoked';
    binding.active = false;
    const fields = { binding_ref: ref, binding_status: 'revoked', revocation_status: outcome };
    return { status: 200, body: receipt('run_unbind', fields) };
  };
  return { rooms, bindings, create, bind, unbind };
};

export const startRoomFacadeFixture = async (options: {
  readonly token: string;
  readonly helixUrl: string;
  readonly script?: Partial<Record<Route, readonly Behaviour[]>>;
}) => {
  const state = roomState();
  const seen: SeenRequest[] = [];
  const calls = new Map<Route, number>();
  let origin = '';

  const behaviourFor = (route: Route | undefined): Behaviour => {
    if (route === undefined) return 'ok';
    const n = calls.get(route) ?? 0;
    calls.set(route, n + 1);
    return options.script?.[route]?.[n] ?? 'ok';
  };

  /** /api/v1/agent-runs goes to the real Helix; its answer is relayed, or lost after the commit. */
  const forward = async (req: IncomingMessage, body: string): Promise<Answer> => {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'idempotency-key', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(`${options.helixUrl}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body === '' ? {} : { body }),
    });
    const relayed: Record<string, string> = {};
    for (const name of ['idempotency-replayed', 'location', 'etag']) {
      const value = answer.headers.get(name);
      if (value !== null) relayed[name] = value;
    }
    return { status: answer.status, body: await answer.json(), headers: relayed };
  };

  const roomAnswer = (req: IncomingMessage, path: string, body: string): Answer => {
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      const challenge = `Bearer resource_metadata="${origin}${ROOMS_METADATA}"`;
      return { ...roomError(401, 'unauthorized'), headers: { 'www-authenticate': challenge } };
    }
    const key = req.headers['idempotency-key'];
    const route = routeOf(req.method ?? '', path);
    if (route === 'room.create') return state.create(typeof key === 'string' ? key : undefined, body);
    if (route === 'room.bind') return state.bind(JSON.parse(body) as { room_id?: string; run_id?: string });
    if (route === 'room.unbind') return state.unbind(decodeURIComponent(path.split('/').pop() ?? ''), body);
    if (route === 'room.command') return roomError(501, 'command_execution_not_enabled', { execution_enabled: false });
    if (req.method === 'GET' && path === '/api/v1/rooms') {
      const rooms = [...state.rooms.values()].map((r) => ({ room_id: r.roomId }));
      return { status: 200, body: receipt('list', { rooms }) };
    }
    const roomId = /^\/api\/v1\/rooms\/([^/]+)$/.exec(path)?.[1];
    if (req.method === 'GET' && [...state.rooms.values()].some((r) => r.roomId === roomId))
      return { status: 200, body: receipt('inspect', { room: { room_id: roomId } }) };
    return roomError(404, 'not_found');
  };

  const answerFor = async (req: IncomingMessage, path: string, body: string): Promise<Answer> => {
    if (req.method === 'GET' && path === ROOMS_METADATA) {
      const document = {
        resource: `${origin}/mcp`,
        authorization_servers: [],
        scopes_supported: [...OAUTH_SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: 'Helix',
      };
      return { status: 200, body: document };
    }
    if (path.startsWith('/api/v1/agent-runs')) return forward(req, body);
    return roomAnswer(req, path, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = new URL(req.url ?? '/', 'http://fixture').pathname;
    const behaviour = behaviourFor(routeOf(req.method ?? '', path));
    if (behaviour === 'hang') return;
    if (behaviour === 'fail' || behaviour === 'unknown') {
      const { status, body: error } =
        behaviour === 'fail' ? roomError(500, 'internal_error') : roomError(409, 'outcome_unknown');
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(error));
      return;
    }
    const answer = await answerFor(req, path, body);
    if (behaviour === 'lose') {
      req.socket.destroy();
      return;
    }
    const headers = { 'content-type': 'application/json', 'cache-control': 'no-store', ...answer.headers };
    res.writeHead(answer.status, headers).end(JSON.stringify(answer.body));
  };

  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch(() => res.destroy());
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    seen,
    rooms: state.rooms,
    bindings: state.bindings,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
