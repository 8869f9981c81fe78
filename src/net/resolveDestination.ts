import { lookup } from 'node:dns/promises';
import { checkAddress, type AddressPolicy, type RefusedAddressClass } from './addressPolicy.js';
import { parseIp } from './ipAddress.js';

/** A hostname's addresses, in the resolver's order; rejects when the name does not resolve. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), as every other connection of the host uses. */
export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** An address a connection may be pinned to: the text the socket is given and its family. */
export interface PinnedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export type Destination =
  | { readonly ok: true; readonly addresses: readonly PinnedAddress[] }
  /** The host names its addresses itself (a literal, or `localhost`) and they are refused: their class may be said. */
  | { readonly ok: false; readonly refusal: 'refused_address'; readonly addressClass: RefusedAddressClass }
  /**
   * A hostname that resolved to no admitted address, or did not resolve at all. The two are one
   * answer on purpose: telling them apart would let a caller probe which internal names exist.
   */
  | { readonly ok: false; readonly refusal: 'no_admitted_address' };

/** RFC 6761 §6.3: `localhost` and its subdomains are loopback whatever a resolver says. */
const LOCALHOST = /^(?:[^.]+\.)*localhost\.?$/i;
const LOOPBACK = ['127.0.0.1', '::1'] as const;

/** The addresses a host names without a resolver: an IP literal (bare or `[v6]`), or a localhost name. */
export const fixedAddresses = (hostname: string): readonly string[] | undefined => {
  if (parseIp(hostname) !== undefined) return [hostname.startsWith('[') ? hostname.slice(1, -1) : hostname];
  return LOCALHOST.test(hostname) ? LOOPBACK : undefined;
};

const admittedOf = (addresses: readonly string[], policy: AddressPolicy): PinnedAddress[] =>
  addresses.flatMap((address) => {
    const parsed = parseIp(address);
    return parsed !== undefined && checkAddress(parsed, policy).admitted
      ? [{ address, family: address.includes(':') ? (6 as const) : (4 as const) }]
      : [];
  });

/**
 * Where a connection to `hostname` may go: every address it names or resolves to is checked, and
 * only the admitted ones are returned, for the connection to be pinned to (so a second, later
 * resolution cannot send it elsewhere). Called for every request, not once: a name that resolved
 * to a public address yesterday may resolve to 127.0.0.1 now (DNS rebinding).
 */
export const resolveDestination = async (
  hostname: string,
  policy: AddressPolicy,
  resolve: HostResolver,
): Promise<Destination> => {
  const fixed = fixedAddresses(hostname);
  let candidates: readonly string[];
  try {
    candidates = fixed ?? (await resolve(hostname));
  } catch {
    return { ok: false, refusal: 'no_admitted_address' };
  }
  const admitted = admittedOf(candidates, policy);
  if (admitted.length > 0) return { ok: true, addresses: admitted };
  const named = fixed?.[0] === undefined ? undefined : parseIp(fixed[0]);
  const verdict = named === undefined ? undefined : checkAddress(named, policy);
  return verdict === undefined || verdict.admitted
    ? { ok: false, refusal: 'no_admitted_address' }
    : { ok: false, refusal: 'refused_address', addressClass: verdict.addressClass };
};

/** Whether a host that names its own addresses names at least one the policy admits (undefined: it needs a resolver). */
export const admitsFixedHost = (hostname: string, policy: AddressPolicy): boolean | undefined => {
  const fixed = fixedAddresses(hostname);
  return fixed === undefined ? undefined : admittedOf(fixed, policy).length > 0;
};
