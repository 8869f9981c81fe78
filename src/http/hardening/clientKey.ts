import { isIPv4, isIPv6 } from 'node:net';

/** Longest key kept for a value that is not an IP address (only a trusted proxy can supply one). */
const MAX_OPAQUE_KEY = 64;

/**
 * The rate-limit key for a client address (Fastify's `request.ip`, which already honours
 * X-Forwarded-For only from proxies trusted by TRUST_PROXY).
 *
 * IPv6 addresses are grouped by their /64 prefix: one subscriber is routinely delegated a whole
 * /64 (RFC 6177) and can rotate through 2^64 source addresses, so keying on the full address
 * would give one client unlimited fresh buckets. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) counts as
 * the IPv4 address it carries, so the same client is one key on dual-stack sockets.
 */
export const clientKeyOf = (ip: string | undefined): string => {
  if (ip === undefined || ip === '') return 'unknown';
  if (isIPv4(ip)) return ip;
  const address = ip.split('%', 1)[0] ?? ip; // drop a zone id (fe80::1%eth0)
  if (isIPv6(address)) {
    const groups = expandIPv6(address);
    if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
      const [high = 0, low = 0] = groups.slice(6);
      return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
    }
    return `${groups
      .slice(0, 4)
      .map((g) => g.toString(16))
      .join(':')}::/64`;
  }
  return ip.slice(0, MAX_OPAQUE_KEY);
};

/** The eight 16-bit groups of a valid IPv6 address. */
const expandIPv6 = (address: string): number[] => {
  const [head = '', tail] = address.split('::', 2);
  const groupsOf = (part: string): string[] =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [g];
          // An embedded IPv4 (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) fills the last two groups.
          const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  const zeros = Array.from({ length: 8 - front.length - back.length }, () => '0');
  return [...front, ...zeros, ...back].map((g) => Number.parseInt(g, 16));
};
