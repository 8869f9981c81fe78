import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';

/** A self-signed certificate for `models.pinned.test` and 127.0.0.1 that no client trusts (openssl, EC P-256, 100 years). */
const SELF_SIGNED = {
  cert: readFileSync(new URL('../fixtures/tls/selfSigned.crt', import.meta.url)),
  key: readFileSync(new URL('../fixtures/tls/selfSigned.key', import.meta.url)),
};

/** A peer on loopback and how often it was reached (connections for TCP, requests for HTTP). */
export interface LoopbackPeer {
  readonly port: number;
  readonly reached: () => number;
}

/**
 * Real TCP and HTTP peers on loopback for outbound tests: a closed port, a server that speaks
 * something other than HTTP, an HTTP server answering one fixed way. `close()` ends every
 * connection first, since a peer that never reads would otherwise hold its server open.
 */
export const loopbackPeers = () => {
  const servers: (Server | TcpServer)[] = [];
  const sockets = new Set<Socket>();

  const listen = async (server: Server | TcpServer, host: string, port: number): Promise<number> => {
    servers.push(server);
    server.on('connection', (socket: Socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    return (server.address() as AddressInfo).port;
  };

  return {
    /** A port that was just bound and released: connecting to it is refused. */
    async closedPort(host = '127.0.0.1'): Promise<LoopbackPeer> {
      const server = createTcpServer();
      const port = await listen(server, host, 0);
      servers.splice(servers.indexOf(server), 1);
      await new Promise((resolve) => server.close(resolve));
      return { port, reached: () => 0 };
    },
    /** A TCP server that writes `banner` and hangs up, whatever it is sent. */
    async notHttp(banner: string, host = '127.0.0.1'): Promise<LoopbackPeer> {
      let connections = 0;
      const port = await listen(
        createTcpServer((socket) => {
          connections += 1;
          socket.end(banner);
        }),
        host,
        0,
      );
      return { port, reached: () => connections };
    },
    /** An HTTP server answering every request with `status`, `body` and `headers`. */
    async answering(
      status: number,
      body: string,
      headers: Record<string, string> = {},
      listenOn: { host?: string; port?: number } = {},
    ): Promise<LoopbackPeer> {
      let requests = 0;
      const server = createHttpServer((req, res) => {
        requests += 1;
        req
          .resume()
          .on('end', () => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body));
      });
      const port = await listen(server, listenOn.host ?? '127.0.0.1', listenOn.port ?? 0);
      return { port, reached: () => requests };
    },
    /** An HTTPS server with a certificate no client trusts; `reached` counts requests that got past TLS. */
    async untrustedTls(host = '127.0.0.1'): Promise<LoopbackPeer> {
      let requests = 0;
      const server = createHttpsServer(SELF_SIGNED, (req, res) => {
        requests += 1;
        req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
      });
      const port = await listen(server, host, 0);
      return { port, reached: () => requests };
    },
    /** Any other server, closed with the rest. */
    listen: (server: Server | TcpServer, host = '127.0.0.1', port = 0): Promise<number> => listen(server, host, port),
    async close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
    },
  };
};
