import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import { containsCredential } from '../../domain/credentialShape.js';
import { HelixError } from '../../domain/errors.js';
import { deleteModelProvider } from '../../service/modelProviders/deleteModelProvider.js';
import type { ModelProviderDeps } from '../../service/modelProviders/deps.js';
import { inspectModelProvider } from '../../service/modelProviders/inspectModelProvider.js';
import { listModelProviders } from '../../service/modelProviders/listModelProviders.js';
import { registerModelProvider } from '../../service/modelProviders/registerModelProvider.js';
import { enforcePrincipalLimit } from '../hardening/rateLimits.js';
import { authenticateRequest } from '../principalHook.js';

export const MODEL_PROVIDERS_PATH = '/api/v1/model-providers';

type Params = { provider_id: string };

interface ProviderRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly handler: (
    deps: ModelProviderDeps,
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

/** The four model-provider endpoints, as a table; each row calls one use case in src/service/modelProviders/. */
export const PROVIDER_ROUTES: readonly ProviderRoute[] = [
  {
    method: 'POST',
    url: MODEL_PROVIDERS_PATH,
    handler: async (d, p, r, reply) => {
      const view = await registerModelProvider(d, p, r.body);
      reply.header('Location', `${MODEL_PROVIDERS_PATH}/${view.provider_id}`).code(201);
      return view;
    },
  },
  { method: 'GET', url: MODEL_PROVIDERS_PATH, handler: (d, p) => listModelProviders(d, p) },
  {
    method: 'GET',
    url: `${MODEL_PROVIDERS_PATH}/:provider_id`,
    handler: (d, p, r) => inspectModelProvider(d, p, r.params.provider_id),
  },
  {
    method: 'DELETE',
    url: `${MODEL_PROVIDERS_PATH}/:provider_id`,
    handler: async (d, p, r, reply) => {
      await deleteModelProvider(d, p, r.params.provider_id);
      return reply.code(204).send();
    },
  },
];

export const registerProviderRoutes = (
  app: FastifyInstance,
  deps: ModelProviderDeps,
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
        return route.handler(deps, principal, request, reply);
      },
    });
  }
};
