/**
 * The floor: a bare Fastify server that answers the two benchmarked routes by committing the same
 * SQLite transactions as Helix and nothing else. No API-key lookup (a constant bearer is compared),
 * no schema validation, no domain model, no query builder. Helix's distance from this server is the
 * cost of everything Helix adds on top of its storage.
 */
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FloorStore, Owner, ReceiptKey } from './floorStore.js';
import { floorRenderer } from './floorView.js';

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

/** The receipt key for a request, or undefined when the bearer or Idempotency-Key is missing or wrong. */
const receiptFor = (request: FastifyRequest, operation: string): ReceiptKey | undefined => {
  if (request.headers.authorization !== `Bearer ${FLOOR_TOKEN}`) return undefined;
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
    const body = store.startRun({ runId: newId('run'), owner: OWNER, objective, objectiveHash: sha256Hex(objective), receipt, fingerprint, now }, render);
    return sendJson(reply, 201, body);
  });

  app.post<{ Params: { run_id: string }; Body: ContinueBody }>('/api/v1/agent-runs/:run_id/continue', async (request, reply) => {
    const receipt = receiptFor(request, 'run.continue');
    const expectedVersion = request.body?.expected_version;
    if (receipt === undefined || typeof expectedVersion !== 'number') return reply.code(400).send();
    const runId = request.params.run_id;
    const fingerprint = sha256Hex(JSON.stringify(request.body));
    const claim = store.claimTurn({ runId, turnId: newId('turn'), expectedVersion, receipt, fingerprint, now: Date.now() });
    if (claim.kind === 'not_found') return reply.code(404).send();
    if (claim.kind === 'conflict') return reply.code(409).send();
    // The no-op executor's turn happens here: nothing to do between the two transactions.
    const body = store.finalizeTurn({ claimed: claim.run, receipt, now: Date.now() }, render);
    return sendJson(reply, 200, body);
  });

  return app;
};
