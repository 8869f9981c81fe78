/**
 * The floor: a bare Fastify server that answers the four benchmarked routes (start, continue,
 * inspect, events) by committing the same SQLite transactions, and running the same reads, as
 * Helix and nothing else. No API-key lookup (a constant bearer is compared),
 * no schema validation, no domain model, no query builder. Helix's distance from this server is the
 * cost of everything Helix adds on top of its storage.
 */
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { fromRow, type FloorState } from './floorRun.js';
import type { FloorStore, Owner, ReceiptKey } from './floorStore.js';
import { floorRenderer, renderEventPage } from './floorView.js';

export const FLOOR_TOKEN = 'floor-bench-token';

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
const newId = (prefix: string): string => `${prefix}_${randomBytes(16).toString('base64url')}`;

const OWNER: Owner = {
  ownerHash: sha256Hex('floor-owner'),
  tenantRef: `tenant:sha256:${sha256Hex('floor-tenant').slice(0, 32)}`,
  accountRef: `account:sha256:${sha256Hex('floor-account').slice(0, 32)}`,
};
const render = floorRenderer(OWNER);

interface StartBody {
  readonly objective?: unknown;
}
interface ContinueBody {
  readonly expected_version?: unknown;
}
interface EventsQuery {
  readonly after_seq?: string;
  readonly limit?: string;
}

const isAuthorized = (request: FastifyRequest): boolean => request.headers.authorization === `Bearer ${FLOOR_TOKEN}`;

/** A non-negative integer query parameter, its default when absent, undefined when malformed. */
const queryInt = (text: string | undefined, fallback: number, max: number): number | undefined => {
  if (text === undefined) return fallback;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= max ? n : undefined;
};

/** The receipt key for a request, or undefined when the bearer or Idempotency-Key is missing or wrong. */
const receiptFor = (request: FastifyRequest, operation: string): ReceiptKey | undefined => {
  if (!isAuthorized(request)) return undefined;
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return undefined;
  return { ownerHash: OWNER.ownerHash, operation, keyHash: sha256Hex(key) };
};

const sendJson = (reply: FastifyReply, status: number, body: string): FastifyReply =>
  reply.code(status).type('application/json; charset=utf-8').send(body);

export const buildFloorApp = (store: FloorStore): FastifyInstance => {
  const app = Fastify({ logger: false });

  app.post<{ Body: StartBody }>('/api/v1/agent-runs', async (request, reply) => {
    const receipt = receiptFor(request, 'run.start');
    const objective = request.body?.objective;
    if (receipt === undefined || typeof objective !== 'string') return reply.code(400).send();
    const now = Date.now();
    const fingerprint = sha256Hex(JSON.stringify(request.body));
    const body = store.startRun(
      { runId: newId('run'), owner: OWNER, objective, objectiveHash: sha256Hex(objective), receipt, fingerprint, now },
      render,
    );
    return sendJson(reply, 201, body);
  });

  app.post<{ Params: { run_id: string }; Body: ContinueBody }>(
    '/api/v1/agent-runs/:run_id/continue',
    async (request, reply) => {
      const receipt = receiptFor(request, 'run.continue');
      const expectedVersion = request.body?.expected_version;
      if (receipt === undefined || typeof expectedVersion !== 'number') return reply.code(400).send();
      const runId = request.params.run_id;
      const fingerprint = sha256Hex(JSON.stringify(request.body));
      const claim = store.claimTurn({
        runId,
        turnId: newId('turn'),
        expectedVersion,
        receipt,
        fingerprint,
        now: Date.now(),
      });
      if (claim.kind === 'not_found') return reply.code(404).send();
      if (claim.kind === 'conflict') return reply.code(409).send();
      // The no-op executor's turn happens here: nothing to do between the two transactions.
      const body = store.finalizeTurn({ claimed: claim.run, receipt, now: Date.now() }, render);
      return sendJson(reply, 200, body);
    },
  );

  // Inspect: the owner-scoped row, its state decoded, the run view; as Helix's store.read.runs.get + projectRun.
  app.get<{ Params: { run_id: string } }>('/api/v1/agent-runs/:run_id', async (request, reply) => {
    if (!isAuthorized(request)) return reply.code(401).send();
    const row = store.ownedRun(request.params.run_id, OWNER.ownerHash);
    if (row === undefined) return reply.code(404).send();
    return sendJson(reply, 200, render(fromRow(row), JSON.parse(row.state) as FloorState));
  });

  // Events: the owner check on the run row, then one page plus one row to tell whether another page exists.
  app.get<{ Params: { run_id: string }; Querystring: EventsQuery }>(
    '/api/v1/agent-runs/:run_id/events',
    async (request, reply) => {
      if (!isAuthorized(request)) return reply.code(401).send();
      const afterSeq = queryInt(request.query.after_seq, 0, Number.MAX_SAFE_INTEGER);
      const limit = queryInt(request.query.limit, 50, 200);
      if (afterSeq === undefined || limit === undefined || limit === 0) return reply.code(400).send();
      const row = store.ownedRun(request.params.run_id, OWNER.ownerHash);
      if (row === undefined) return reply.code(404).send();
      return sendJson(
        reply,
        200,
        renderEventPage(row.run_id, store.events(row.run_id, afterSeq, limit + 1), afterSeq, limit),
      );
    },
  );

  return app;
};
