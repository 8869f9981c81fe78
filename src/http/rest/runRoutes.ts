import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import type { RunService } from '../../service/runs/runService.js';
import type { ServiceResult } from '../../service/result.js';
import { enforcePrincipalLimit } from '../hardening/rateLimits.js';
import { authenticateRequest } from '../principalHook.js';
import { containsCredential } from '../../domain/credentialShape.js';
import { HelixError } from '../../domain/errors.js';
import { idempotencyKeyOf } from './idempotencyHeader.js';

export const RUNS_PATH = '/api/v1/agent-runs';

type Params = { run_id: string };
type Handler = (
  service: RunService,
  principal: Principal,
  request: FastifyRequest<{ Params: Params }>,
) => Promise<ServiceResult>;

interface RunRoute {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly mutation: boolean;
  readonly handler: Handler;
}

/** The run endpoints of the contract, as a table; each row calls one use case. */
export const RUN_ROUTES: readonly RunRoute[] = [
  { method: 'POST', url: RUNS_PATH, mutation: true, handler: (s, p, r) => s.start(p, idempotencyKeyOf(r), r.body) },
  { method: 'GET', url: RUNS_PATH, mutation: false, handler: (s, p, r) => s.list(p, r.query) },
  { method: 'GET', url: `${RUNS_PATH}/:run_id`, mutation: false, handler: (s, p, r) => s.inspect(p, r.params.run_id) },
  {
    method: 'POST',
    url: `${RUNS_PATH}/:run_id/continue`,
    mutation: true,
    handler: (s, p, r) => s.continue(p, r.params.run_id, idempotencyKeyOf(r), r.body),
  },
  {
    method: 'POST',
    url: `${RUNS_PATH}/:run_id/cancel`,
    mutation: true,
    handler: (s, p, r) => s.cancel(p, r.params.run_id, idempotencyKeyOf(r), r.body),
  },
  {
    method: 'GET',
    url: `${RUNS_PATH}/:run_id/events`,
    mutation: false,
    handler: (s, p, r) => s.events(p, r.params.run_id, r.query),
  },
  {
    method: 'GET',
    url: `${RUNS_PATH}/:run_id/evidence`,
    mutation: false,
    handler: (s, p, r) => s.evidence(p, r.params.run_id),
  },
];

const sendResult = (reply: FastifyReply, route: RunRoute, result: ServiceResult): FastifyReply => {
  const body = result.body as { version?: unknown; run_id?: unknown; schema?: unknown };
  // Weak ETag from the run version on run snapshots (helix.agent_run.v1).
  if (body.schema === 'helix.agent_run.v1' && typeof body.version === 'number')
    reply.header('ETag', `W/"${body.version}"`);
  if (route.mutation) reply.header('Idempotency-Replayed', result.replayed ? 'true' : 'false');
  if (result.status === 201 && typeof body.run_id === 'string')
    reply.header('Location', `${RUNS_PATH}/${encodeURIComponent(body.run_id)}`);
  return reply.code(result.status).send(result.body);
};

export const registerRunRoutes = (app: FastifyInstance, service: RunService, authenticator: Authenticator): void => {
  for (const route of RUN_ROUTES) {
    app.route<{ Params: Params }>({
      method: route.method,
      url: route.url,
      handler: async (request, reply) => {
        // Every mutation response says whether it was replayed, refusals included.
        if (route.mutation) reply.header('Idempotency-Replayed', 'false');
        const principal = await authenticateRequest(authenticator, request);
        // A key or token pasted into a request would be stored and shown back: refuse it unseen.
        if (containsCredential(request.body)) {
          throw new HelixError('invalid_request', {
            issues: [{ path: '(body)', message: 'credential-shaped value refused' }],
          });
        }
        request.principalId = principal.credentialId;
        enforcePrincipalLimit(request, principal, 'rest');
        return sendResult(reply, route, await route.handler(service, principal, request));
      },
    });
  }
};
