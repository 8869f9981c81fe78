import { cidr, cidrContains, embeddedIpv4, type Cidr, type IpAddress } from './ipAddress.js';

/**
 * Which addresses Helix may connect to on someone else's say-so. A server-side request to a
 * caller-chosen URL can reach what the caller cannot: the cloud metadata service
 * (169.254.169.254, fd00:ec2::254, 100.100.100.200, 192.0.0.192), the host's own loopback
 * services, and the private network behind it. Only public unicast addresses are admitted by
 * default; the operator admits anything else by range (HELIX_MODEL_PROVIDER_ALLOWED_CIDRS).
 *
 * "Public" follows the IANA special-purpose address registries (RFC 6890 and successors): every
 * block that is not globally reachable is refused, and for IPv6 everything outside global unicast
 * 2000::/3 is refused as well.
 */
export const REFUSED_ADDRESS_CLASSES = [
  'unspecified',
  'loopback',
  'private',
  'link_local',
  'unique_local',
  /** 100.64.0.0/10, RFC 6598 shared address space (carrier-grade NAT). */
  'shared',
  'multicast',
  'documentation',
  'benchmarking',
  /** Reserved, protocol-assignment, deprecated and non-global-unicast blocks. */
  'reserved',
] as const;
export type RefusedAddressClass = (typeof REFUSED_ADDRESS_CLASSES)[number];
export type AddressClass = 'public' | RefusedAddressClass;

const NON_PUBLIC: readonly (readonly [Cidr, RefusedAddressClass])[] = [
  [cidr('0.0.0.0/8'), 'unspecified'], // "this network"; connecting to 0.0.0.0 reaches the host itself
  [cidr('10.0.0.0/8'), 'private'],
  [cidr('100.64.0.0/10'), 'shared'],
  [cidr('127.0.0.0/8'), 'loopback'],
  [cidr('169.254.0.0/16'), 'link_local'],
  [cidr('172.16.0.0/12'), 'private'],
  [cidr('192.0.0.0/24'), 'reserved'],
  [cidr('192.0.2.0/24'), 'documentation'],
  [cidr('192.88.99.0/24'), 'reserved'],
  [cidr('192.168.0.0/16'), 'private'],
  [cidr('198.18.0.0/15'), 'benchmarking'],
  [cidr('198.51.100.0/24'), 'documentation'],
  [cidr('203.0.113.0/24'), 'documentation'],
  [cidr('224.0.0.0/4'), 'multicast'],
  [cidr('240.0.0.0/4'), 'reserved'], // includes 255.255.255.255
  [cidr('::/128'), 'unspecified'],
  [cidr('::1/128'), 'loopback'],
  [cidr('fc00::/7'), 'unique_local'],
  [cidr('fe80::/10'), 'link_local'],
  [cidr('ff00::/8'), 'multicast'],
  [cidr('2001::/23'), 'reserved'], // IETF protocol assignments, Teredo among them
  [cidr('2001:db8::/32'), 'documentation'],
  [cidr('2002::/16'), 'reserved'], // 6to4 tunnels to any IPv4 address
  [cidr('3fff::/20'), 'documentation'],
];

const GLOBAL_UNICAST_V6 = cidr('2000::/3');
/** RFC 6052 well-known NAT64 prefix: the address is the IPv4 address in its low 32 bits. */
const NAT64 = cidr('64:ff9b::/96');

export const classifyAddress = (address: IpAddress): AddressClass => {
  if (cidrContains(NAT64, address)) return classifyAddress(embeddedIpv4(address));
  for (const [range, kind] of NON_PUBLIC) if (cidrContains(range, address)) return kind;
  if (address.version === 6 && !cidrContains(GLOBAL_UNICAST_V6, address)) return 'reserved';
  return 'public';
};

export interface AddressPolicy {
  /** Ranges the operator admits although they are not public. */
  readonly allowedCidrs: readonly Cidr[];
}

export type AddressVerdict =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly addressClass: RefusedAddressClass };

export const checkAddress = (address: IpAddress, policy: AddressPolicy): AddressVerdict => {
  const addressClass = classifyAddress(address);
  if (addressClass === 'public' || policy.allowedCidrs.some((range) => cidrContains(range, address)))
    return { admitted: true };
  return { admitted: false, addressClass };
};
