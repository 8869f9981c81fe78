import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAUTH_SCOPES } from '../domain/scopes.js';

/** RFC 9728 protected-resource metadata paths of the contract. */
export const PROTECTED_RESOURCE_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-protected-resource/api/v1/agent-runs',
  '/.well-known/oauth-protected-resource/api/v1/rooms',
] as const;
export const DEVICE_CHECK_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp/device-check';

export interface DiscoveryOptions {
  readonly publicBaseUrl: string | undefined;
  readonly authorizationServers: readonly string[];
}

/** The canonical resource: the configured public origin, or (for local use) the origin requested. */
export const publicOrigin = (request: FastifyRequest, publicBaseUrl: string | undefined): string =>
  publicBaseUrl ?? `${request.protocol}://${request.host}`;

const metadata = (request: FastifyRequest, options: DiscoveryOptions, scopes: readonly string[]) => ({
  resource: publicOrigin(request, options.publicBaseUrl),
  authorization_servers: options.authorizationServers,
  scopes_supported: scopes,
  bearer_methods_supported: ['header'],
  resource_name: 'Helix',
});

export const registerDiscovery = (app: FastifyInstance, options: DiscoveryOptions): void => {
  for (const path of PROTECTED_RESOURCE_PATHS) {
    app.get(path, async (request) => metadata(request, options, OAUTH_SCOPES));
  }
  // The Device Check client may discover only the read-only room scope.
  app.get(DEVICE_CHECK_METADATA_PATH, async (request) => metadata(request, options, ['helix.rooms.read']));
};
