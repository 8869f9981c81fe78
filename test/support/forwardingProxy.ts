import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for a TLS-terminating reverse proxy: it forwards every request to `target`
 * with the public `Host` and `X-Forwarded-Proto: https`, as nginx or a cloud load balancer would
 * after terminating TLS for that host. Helix must list 127.0.0.1 in TRUST_PROXY to believe it.
 */
export const startForwardingProxy = async (target: string, publicHost: string) => {
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: publicHost, 'x-forwarded-proto': 'https' },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    /** A fetch that sends `https://<publicHost>/…` through the proxy and everything else unchanged. */
    fetch: (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.protocol === 'https:' && url.host === publicHost)
        return fetch(`${origin}${url.pathname}${url.search}`, init);
      return fetch(input, init);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
