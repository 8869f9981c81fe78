import { isIPv4, isIPv6 } from 'node:net';

/**
 * IP addresses and CIDR ranges as numbers, so a range test is two shifts and a compare. Only the
 * canonical text forms are read here (dotted-quad IPv4 without leading zeros, RFC 4291 IPv6): the
 * WHATWG URL parser has already turned `2130706433`, `0x7f.1` and `017700000001` into `127.0.0.1`
 * before a host reaches this module, and resolvers answer in canonical form.
 */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly value: bigint;
}

export interface Cidr {
  readonly version: 4 | 6;
  /** The network address; host bits are zero. */
  readonly base: bigint;
  readonly prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;
/** ::ffff:0:0/96: an IPv4 address as a dual-stack socket spells it (RFC 4291 §2.5.5.2). */
const MAPPED_PREFIX = 0xffffn;

const ipv4Value = (text: string): bigint =>
  text.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);

/** The eight 16-bit groups of an IPv6 address, `::` expanded and a dotted-quad tail folded in. */
const ipv6Value = (text: string): bigint => {
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  let hex = text;
  if (tail.includes('.')) {
    const v4 = ipv4Value(tail);
    hex = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = hex.split('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const zeros: string[] = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
};

/**
 * Parses an address: bare, or in URL brackets (`[::1]`), a zone (`%eth0`) ignored. An IPv4-mapped
 * IPv6 address is returned as the IPv4 address it reaches, so `[::ffff:127.0.0.1]` is loopback.
 * Undefined for anything that is not an address (a hostname).
 */
export const parseIp = (text: string): IpAddress | undefined => {
  const bare = (text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text).split('%', 1)[0] ?? '';
  if (isIPv4(bare)) return { version: 4, value: ipv4Value(bare) };
  if (!isIPv6(bare)) return undefined;
  const value = ipv6Value(bare);
  return value >> 32n === MAPPED_PREFIX ? { version: 4, value: value & 0xffffffffn } : { version: 6, value };
};

/**
 * Parses `address/prefix`, or a bare address as a one-address range. Host bits must be zero
 * (`10.0.0.1/8` is refused rather than guessed at). Undefined when the text is not a range.
 */
export const parseCidr = (text: string): Cidr | undefined => {
  const [addressText = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const bare = addressText.startsWith('[') && addressText.endsWith(']') ? addressText.slice(1, -1) : addressText;
  if (!isIPv4(bare) && !isIPv6(bare)) return undefined;
  const written = isIPv4(bare)
    ? { version: 4 as const, value: ipv4Value(bare) }
    : { version: 6 as const, value: ipv6Value(bare) };
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? BITS[written.version] : Number(prefixText);
  if (prefix > BITS[written.version]) return undefined;
  const hostBits = BigInt(BITS[written.version] - prefix);
  if (written.value & ((1n << hostBits) - 1n)) return undefined;
  // A range inside ::ffff:0:0/96 is an IPv4 range, as the addresses it is compared with are.
  if (written.version === 6 && prefix >= 96 && written.value >> 32n === MAPPED_PREFIX) {
    return { version: 4, base: written.value & 0xffffffffn, prefix: prefix - 96 };
  }
  return { version: written.version, base: written.value, prefix };
};

export const cidrContains = (cidr: Cidr, address: IpAddress): boolean => {
  if (cidr.version !== address.version) return false;
  const shift = BigInt(BITS[cidr.version] - cidr.prefix);
  return address.value >> shift === cidr.base >> shift;
};

/** A range known at build time; a typo in a table is a programming error. */
export const cidr = (text: string): Cidr => {
  const parsed = parseCidr(text);
  if (parsed === undefined) throw new TypeError(`not a CIDR range: ${text}`);
  return parsed;
};

/** The IPv4 address inside an IPv6 address's low 32 bits (NAT64 and similar embeddings). */
export const embeddedIpv4 = (address: IpAddress): IpAddress => ({ version: 4, value: address.value & 0xffffffffn });
