import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import type { SubjectService } from '../../service/subjects/subjectService.js';
import { enforcePrincipalLimit } from '../hardening/rateLimits.js';
import { authenticateRequest } from '../principalHook.js';

export const SUBJECTS_PATH = '/api/v1/subjects';

type Params = { account_id: string };

interface SubjectRoute {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly handler: (
    service: SubjectService,
    principal: Principal,
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
  ) => Promise<unknown>;
}

/** The erase takes no input but its path and Idempotency-Key: a body, if any, must be `{}`. */
const assertNoInput = (body: unknown): void => {
  const empty =
    body === undefined ||
    body === null ||
    (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty)
    throw new HelixError('invalid_request', { issues: [{ path: '(body)', message: 'the erase takes no body' }] });
};

/** ADR-0004 subject access (src/service/subjects/), as a table; each row calls one SubjectService operation. */
export const SUBJECT_ROUTES: readonly SubjectRoute[] = [
  { method: 'GET', url: `${SUBJECTS_PATH}/:account_id`, handler: (s, p, r) => s.show(p, r.params.account_id) },
  // Cache-Control: no-store is on every response (src/http/app.ts); an export must never be cached.
  { method: 'GET', url: `${SUBJECTS_PATH}/:account_id/export`, handler: (s, p, r) => s.export(p, r.params.account_id) },
  {
    method: 'POST',
    url: `${SUBJECTS_PATH}/:account_id/erase`,
    handler: async (s, p, r, reply) => {
      assertNoInput(r.body);
      const header = r.headers['idempotency-key'];
      const result = await s.erase(p, r.params.account_id, typeof header === 'string' ? header : undefined);
      reply.header('Idempotency-Replayed', result.replayed ? 'true' : 'false');
      return result.body;
    },
  },
];

export const registerSubjectRoutes = (
  app: FastifyInstance,
  service: SubjectService,
  authenticator: Authenticator,
): void => {
  for (const route of SUBJECT_ROUTES) {
    app.route<{ Params: Params }>({
      method: route.method,
      url: route.url,
      handler: async (request, reply) => {
        if (route.method === 'POST') reply.header('Idempotency-Replayed', 'false');
        const principal = await authenticateRequest(authenticator, request);
        request.principalId = principal.credentialId;
        enforcePrincipalLimit(request, principal, 'rest');
        return route.handler(service, principal, request, reply);
      },
    });
  }
};
