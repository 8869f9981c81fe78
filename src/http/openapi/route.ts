import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './document.js';
import { OPENAPI_PATH } from './operations.js';

/**
 * The contract, public and unauthenticated like discovery: it describes the API, never a caller's
 * data. Built once at registration; the onRequest hook adds the usual no-store and request-id headers.
 */
export const registerOpenApiRoute = (app: FastifyInstance): void => {
  const document = buildOpenApiDocument();
  app.get(OPENAPI_PATH, async () => document);
};
