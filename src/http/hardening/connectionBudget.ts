import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * At most `max` open connections in all, whatever their addresses, so that connections can never
 * use up the process's file descriptors (src/http/hardening/descriptorLimit.ts keeps the default
 * below them). The per-address cap alone does not: four addresses at their caps held every
 * descriptor, and /healthz failed.
 *
 * At the budget, a new connection displaces the oldest one that is not being answered: one still
 * sending its headers or body (the slow sockets of an attack), or idle between keep-alive requests.
 * So a fresh /healthz, which sends its request at once, is answered while an attack holds the
 * budget. A connection whose request has fully arrived and whose response is still going (a long
 * poll, an event stream, a turn) is never displaced; when every connection is one of those, the new
 * connection is closed instead, before any byte is read.
 *
 * Register after the per-address cap: a connection that cap refused is already destroyed here and
 * must not displace anyone.
 */
export const budgetConnections = (server: Server, max: number): void => {
  // Insertion order is connection age; the value is the last response the connection carried.
  const open = new Map<Socket, ServerResponse | undefined>();
  const isBeingAnswered = (res: ServerResponse | undefined): boolean =>
    res?.req.complete === true && !res.writableFinished;
  const displaceOldest = (): boolean => {
    for (const [socket, res] of open) {
      if (isBeingAnswered(res)) continue;
      open.delete(socket);
      socket.destroy();
      return true;
    }
    return false;
  };
  server.on('connection', (socket: Socket) => {
    if (socket.destroyed) return;
    if (open.size >= max && !displaceOldest()) {
      socket.destroy();
      return;
    }
    open.set(socket, undefined);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (_req, res: ServerResponse) => {
    if (open.has(res.req.socket)) open.set(res.req.socket, res);
  });
};
