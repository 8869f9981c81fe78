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
    authorizationHeaders: authorizationHeaderCount(request.raw.rawHeaders),
    headers: request.headers,
  };
};

/** Node keeps only the first of repeated Authorization headers; the raw list shows them all. */
const authorizationHeaderCount = (raw: readonly string[]): number => {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.toLowerCase() === 'authorization') count += 1;
  return count;
};

export const authenticateRequest = (authenticator: Authenticator, request: FastifyRequest): Promise<Principal> =>
  authenticator.authenticate(credentialsOf(request));
