import { BlockList, isIP } from 'node:net';

/**
 * TRUST_PROXY, parsed (docs/spec/helix-agent-api-v1.md: "exact reverse-proxy trust or hop configuration").
 * - `addresses`: the proxies' exact addresses or CIDRs (or the keywords loopback, linklocal,
 *   uniquelocal); a hop is trusted only when its address is listed.
 * - `hops`: the number of proxies in front of Helix. A bare count cannot name the proxy, so it is
 *   honoured only for hops whose address is private (loopback, RFC 1918, link-local, unique-local):
 *   a client reaching Helix directly from a public address can never spoof X-Forwarded-*.
 */
export type TrustProxySetting =
  | { readonly kind: 'addresses'; readonly entries: readonly string[] }
  | { readonly kind: 'hops'; readonly hops: number };

export const MAX_TRUSTED_HOPS = 5;

const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const LINK_LOCAL = ['169.254.0.0/16', 'fe80::/10'];
const UNIQUE_LOCAL = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'];
const KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  loopback: LOOPBACK,
  linklocal: LINK_LOCAL,
  uniquelocal: UNIQUE_LOCAL,
};
const PRIVATE_RANGES = [...LOOPBACK, ...LINK_LOCAL, ...UNIQUE_LOCAL];

export class TrustProxyError extends Error {
  override readonly name = 'TrustProxyError';
}

const addRange = (list: BlockList, entry: string): void => {
  const [address = '', prefix] = entry.split('/', 2);
  const family = isIP(address);
  if (family === 0) throw new TrustProxyError(`not an address or CIDR: ${entry.slice(0, 60)}`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) {
    list.addAddress(address, type);
    return;
  }
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
  if (!(bits >= 0 && bits <= (family === 4 ? 32 : 128)))
    throw new TrustProxyError(`bad prefix length in ${entry.slice(0, 60)}`);
  list.addSubnet(address, bits, type);
};

const blockListOf = (entries: readonly string[]): BlockList => {
  const list = new BlockList();
  for (const entry of entries) for (const range of KEYWORDS[entry.toLowerCase()] ?? [entry]) addRange(list, range);
  return list;
};

/** `::ffff:10.0.0.5` (a dual-stack socket's IPv4 peer) is checked as the IPv4 address it carries. */
const contains = (list: BlockList, address: string): boolean => {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
  if (mapped !== undefined) return list.check(mapped, 'ipv4');
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

/** Parses TRUST_PROXY; throws TrustProxyError naming what is wrong. */
export const parseTrustProxy = (raw: string): TrustProxySetting => {
  if (raw === 'true')
    throw new TrustProxyError(
      'true would trust forwarding headers from any client; name the proxies or give a hop count',
    );
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > MAX_TRUSTED_HOPS) throw new TrustProxyError(`a hop count must be 1-${MAX_TRUSTED_HOPS}`);
    return { kind: 'hops', hops };
  }
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) throw new TrustProxyError('no proxy address given');
  blockListOf(entries); // validates every entry now, at start-up
  return { kind: 'addresses', entries };
};

/** The `(address, hop index)` predicate Fastify (proxy-addr) asks for each hop, nearest first. */
export const trustFunction = (setting: TrustProxySetting | undefined): ((address: string, hop: number) => boolean) => {
  if (setting === undefined) return () => false;
  if (setting.kind === 'addresses') {
    const list = blockListOf(setting.entries);
    return (address) => contains(list, address);
  }
  const privateRanges = blockListOf(PRIVATE_RANGES);
  return (address, hop) => hop < setting.hops && contains(privateRanges, address);
};
