import type { Server } from 'node:http';
import { clientKeyOf } from './clientKey.js';

/**
 * At most `max` open connections per client address (IPv6 by /64, as for rate limits), so one
 * client holding sockets open cannot use up the process's file descriptors and starve everyone,
 * health checks included. A connection over the cap is closed at once, before any byte is read.
 * Trusted proxies carry many clients and are never capped; their clients are rate-limited per
 * forwarded address instead.
 */
export const capConnectionsPerAddress = (
  server: Server,
  max: number,
  trusted: (address: string, hop: number) => boolean,
): void => {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    if (trusted(address, 0)) return;
    const key = clientKeyOf(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
};
