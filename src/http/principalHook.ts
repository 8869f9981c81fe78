import type { FastifyRequest } from 'fastify';
import type { Authenticator, Credentials } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';

/** Extracts exactly the credential inputs the authenticator consults; the URL query is only probed. */
export const credentialsOf = (request: FastifyRequest): Credentials => {
  const query = request.query as Record<string, unknown> | undefined;
  const authorization = request.headers.authorization;
  return {
    authorization: typeof authorization === 'string' ? authorization : undefined,
    queryToken: query !== undefined && query !== null && 'access_token' in query,
    headers: request.headers,
  };
};

export const authenticateRequest = (authenticator: Authenticator, request: FastifyRequest): Promise<Principal> =>
  authenticator.authenticate(credentialsOf(request));
