import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, roomErrorBody } from '../api/errorBody.js';
import { HelixError, isHelixError } from '../domain/errors.js';
import { recordRequestError } from './requestTracing.js';
import { bearerChallenge } from './challenge.js';
import { publicOrigin, type ResourceIdentity } from './resourceIdentity.js';

/** Maps anything thrown in a route to the one error vocabulary; unknown errors become internal_error. */
export const toHelixError = (err: unknown): HelixError => {
  if (isHelixError(err)) return err;
  const fastifyError = err as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HelixError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HelixError('unsupported_media_type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HelixError('invalid_request');
    default:
      if (fastifyError.statusCode === 413) return new HelixError('payload_too_large');
      if (fastifyError.statusCode === 415) return new HelixError('unsupported_media_type');
      if (fastifyError.statusCode === 400) return new HelixError('invalid_request');
      return new HelixError('internal_error');
  }
};

/** The room facade's paths (src/http/rest/roomRoutes.ts), whose errors use the room error schema. */
export const isRoomPath = (url: string): boolean => {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/api/v1/rooms' || path.startsWith('/api/v1/rooms/');
};

/** The metadata document a challenge points at: the MCP one for /mcp (the Device Check one for its server), the rooms one for the room facade (SLR-14), the root one otherwise. */
export const resourceMetadataUrl = (request: FastifyRequest, identity: ResourceIdentity): string => {
  const origin = publicOrigin(request, identity);
  const url = request.url.split('?', 1)[0] ?? '';
  // DC-01: the Device Check server's challenge names its own, read-only-scope metadata.
  const path =
    url === '/mcp/device-check'
      ? '/mcp/device-check'
      : url === '/mcp' || url.startsWith('/mcp/')
        ? '/mcp'
        : isRoomPath(request.url)
          ? '/api/v1/rooms'
          : '';
  return `${origin}/.well-known/oauth-protected-resource${path}`;
};

export const sendError = (reply: FastifyReply, err: HelixError, metadataUrl: string): FastifyReply => {
  recordRequestError(reply.request, err.code);
  const challenge = bearerChallenge(err, metadataUrl);
  if (challenge !== undefined) reply.header('WWW-Authenticate', challenge);
  if (err.details.retry_after_seconds !== undefined)
    reply.header('Retry-After', String(err.details.retry_after_seconds));
  const body = isRoomPath(reply.request.url) ? roomErrorBody(err) : errorBody(err);
  return reply.code(err.status).type('application/json; charset=utf-8').send(body);
};
