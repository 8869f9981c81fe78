import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback JWKS endpoint that serves a given key set and counts fetches; it can be switched to
 * hang (no answer) to play a slow or dead authorization server.
 */
export const startJwksServer = async (jwks: unknown) => {
  let hits = 0;
  let hang = false;
  const server: Server = createServer((_request, response) => {
    hits++;
    if (hang) return; // never answers: the verifier must give up on its own timeout
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks`,
    hits: () => hits,
    hang: (value: boolean) => {
      hang = value;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
