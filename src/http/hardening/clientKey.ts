import { isIP, isIPv4 } from 'node:net';
import { normalizeIP } from '@fastify/rate-limit';

/** Longest key kept for a value that is not an IP address (only a trusted proxy can supply one). */
const MAX_OPAQUE_KEY = 64;
/** One subscriber is routinely delegated a whole /64 (RFC 6177). */
const IPV6_PREFIX = 64;

/**
 * The rate-limit key for a client address (Fastify's `request.ip`, which already honours
 * X-Forwarded-For only from proxies trusted by TRUST_PROXY).
 *
 * @fastify/rate-limit's `normalizeIP` (documented for custom key generators) groups IPv6 by its
 * /64 prefix, since a client that can rotate through 2^64 source addresses would otherwise get
 * unlimited fresh buckets, and keys IPv4-mapped IPv6 (`::ffff:a.b.c.d`) as the IPv4 address it
 * carries, so the same client is one key on dual-stack sockets. The prefix is kept in the key so
 * a logged key does not read as a single address.
 */
export const clientKeyOf = (ip: string | undefined): string => {
  if (ip === undefined || ip === '') return 'unknown';
  if (isIP(ip) === 0) return ip.slice(0, MAX_OPAQUE_KEY);
  const key = normalizeIP(ip, IPV6_PREFIX);
  return isIPv4(key) ? key : `${key}/${IPV6_PREFIX}`;
};
