import type { FastifyRequest } from 'fastify';

/**
 * Who this protected resource is, in one place (RFC 9728, RFC 8707, MCP authorization).
 *
 * The `resource` every metadata document advertises is the canonical resource identifier that
 * tokens are checked against: the configured OAuth audience. A client sends exactly that value as
 * its RFC 8707 `resource` parameter and the authorization server puts it in `aud`; advertising
 * anything else (the bare origin, a path per document) gets such a token refused.
 *
 * The origin used for metadata and challenge URLs is the configured public base URL, or, only when
 * none is configured (local use), the request's own Host header: the one the host policy admitted
 * before any handler ran. It is never taken from `X-Forwarded-Host`, which any client can send.
 */
export interface ResourceIdentity {
  /** HELIX_PUBLIC_BASE_URL (or the audience's origin in production): scheme://host[:port], no path. */
  readonly publicBaseUrl: string | undefined;
  /** The canonical resource: the OAuth audience; undefined when no audience is configured. */
  readonly resource: string | undefined;
}

export const MCP_PATH = '/mcp';

export const publicOrigin = (request: FastifyRequest, identity: ResourceIdentity): string =>
  identity.publicBaseUrl ?? `${request.protocol}://${request.headers.host ?? 'localhost'}`;

/** Without a configured audience (local development) the MCP endpoint's URL names the resource. */
export const canonicalResource = (request: FastifyRequest, identity: ResourceIdentity): string =>
  identity.resource ?? `${publicOrigin(request, identity)}${MCP_PATH}`;
