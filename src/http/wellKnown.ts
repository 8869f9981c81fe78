import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { canonicalResource, type ResourceIdentity } from './resourceIdentity.js';

/** RFC 9728 protected-resource metadata paths of the contract. */
export const PROTECTED_RESOURCE_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  // ATP-02: `/mcp/codex` serves the same tools as `/mcp`, so it names the same scopes.
  '/.well-known/oauth-protected-resource/mcp/codex',
  '/.well-known/oauth-protected-resource/api/v1/agent-runs',
  '/.well-known/oauth-protected-resource/api/v1/rooms',
] as const;
export const DEVICE_CHECK_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp/device-check';
export const CODEX_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp/codex';

export interface DiscoveryOptions {
  readonly identity: ResourceIdentity;
  readonly authorizationServers: readonly string[];
  /**
   * `scopes_supported` of the full documents: what this deployment can admit
   * (advertisedOAuthScopes), so a client is never sent to ask for a scope no source here backs.
   */
  readonly scopesSupported: readonly string[];
}

/** RFC 9728 protected-resource metadata, as served below. */
export const ProtectedResourceMetadataSchema = z.looseObject({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.literal('header')),
  resource_name: z.string(),
});

/** Every document names the same canonical resource: the one audience REST and MCP tokens carry. */
const metadata = (
  request: FastifyRequest,
  options: DiscoveryOptions,
  scopes: readonly string[],
): z.output<typeof ProtectedResourceMetadataSchema> => ({
  resource: canonicalResource(request, options.identity),
  authorization_servers: [...options.authorizationServers],
  scopes_supported: [...scopes],
  bearer_methods_supported: ['header'],
  resource_name: 'Helix',
});

export const registerDiscovery = (app: FastifyInstance, options: DiscoveryOptions): void => {
  for (const path of PROTECTED_RESOURCE_PATHS) {
    app.get(path, async (request) => metadata(request, options, options.scopesSupported));
  }
  // The Device Check client may discover only the read-only room scope.
  app.get(DEVICE_CHECK_METADATA_PATH, async (request) => metadata(request, options, ['helix.rooms.read']));
};
