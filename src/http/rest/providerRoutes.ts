import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import { containsCredential } from '../../domain/credentialShape.js';
import { HelixError } from '../../domain/errors.js';
import type { ProviderService } from '../../providers/providerService.js';
import { enforcePrincipalLimit } from '../hardening/rateLimits.js';
import { authenticateRequest } from '../principalHook.js';

export const MODEL_PROVIDERS_PATH = '/api/v1/model-providers';

type Params = { provider_id: string };

interface ProviderRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly handler: (
    service: ProviderService,
    principal: Principal,
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
  ) => Promise<unknown>;
}

/**
 * The body with its one credential-carrying field set aside. `api_key` at the top level is the only
 * place a credential may travel in any Helix request; it is sealed and never shown back. Anything
 * credential-shaped elsewhere (a label, a model name, a nested field) is still refused unseen.
 */
const bodyOutsideApiKey = (body: unknown): unknown => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { api_key: _sealedSeparately, ...rest } = body as Record<string, unknown>;
  return typeof _sealedSeparately === 'string' ? rest : body;
};

/** The four model-provider endpoints, as a table; each row calls one ProviderService operation. */
export const PROVIDER_ROUTES: readonly ProviderRoute[] = [
  {
    method: 'POST',
    url: MODEL_PROVIDERS_PATH,
    handler: async (s, p, r, reply) => {
      const view = await s.register(p, r.body);
      reply.header('Location', `${MODEL_PROVIDERS_PATH}/${view.provider_id}`).code(201);
      return view;
    },
  },
  { method: 'GET', url: MODEL_PROVIDERS_PATH, handler: (s, p) => s.list(p) },
  {
    method: 'GET',
    url: `${MODEL_PROVIDERS_PATH}/:provider_id`,
    handler: (s, p, r) => s.inspect(p, r.params.provider_id),
  },
  {
    method: 'DELETE',
    url: `${MODEL_PROVIDERS_PATH}/:provider_id`,
    handler: async (s, p, r, reply) => {
      await s.remove(p, r.params.provider_id);
      return reply.code(204).send();
    },
  },
];

export const registerProviderRoutes = (
  app: FastifyInstance,
  service: ProviderService,
  authenticator: Authenticator,
): void => {
  for (const route of PROVIDER_ROUTES) {
    app.route<{ Params: Params }>({
      method: route.method,
      url: route.url,
      handler: async (request, reply) => {
        const principal = await authenticateRequest(authenticator, request);
        if (containsCredential(bodyOutsideApiKey(request.body))) {
          throw new HelixError('invalid_request', {
            issues: [{ path: '(body)', message: 'credential-shaped value refused' }],
          });
        }
        request.principalId = principal.credentialId;
        enforcePrincipalLimit(request, principal, 'rest');
        return route.handler(service, principal, request, reply);
      },
    });
  }
};
