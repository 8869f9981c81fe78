import { describe, expect, it } from 'vitest';
import { parseTrustProxy, trustFunction, TrustProxyError } from './trustProxy.js';

describe('TRUST_PROXY', () => {
  it('trusts exactly the listed addresses, CIDRs and keywords (IPv4-mapped peers included)', () => {
    const trust = trustFunction(parseTrustProxy('10.0.0.5, 10.0.1.0/24, loopback, fd00::/8'));
    for (const address of ['10.0.0.5', '10.0.1.77', '127.0.0.1', '::1', '::ffff:10.0.0.5', 'fd12::1'])
      expect(trust(address, 0), address).toBe(true);
    for (const address of ['10.0.0.6', '10.0.2.1', '8.8.8.8', '::ffff:8.8.8.8', '2001:db8::1', 'not-an-ip'])
      expect(trust(address, 0), address).toBe(false);
  });

  it('a hop count trusts that many private hops and never a public peer', () => {
    const trust = trustFunction(parseTrustProxy('2'));
    expect(trust('127.0.0.1', 0)).toBe(true);
    expect(trust('10.1.2.3', 1)).toBe(true);
    expect(trust('10.1.2.3', 2)).toBe(false); // a third hop: beyond the configured proxies
    expect(trust('203.0.113.9', 0)).toBe(false); // a client that reached Helix directly
    expect(trust('::ffff:192.168.1.1', 0)).toBe(true);
  });

  it('nothing configured trusts nobody', () => {
    expect(trustFunction(undefined)('127.0.0.1', 0)).toBe(false);
  });

  it.each(['true', '0', '6', '10.0.0.300', '10.0.0.0/33', 'proxy.internal', ' , '])('refuses %j', (raw) => {
    expect(() => parseTrustProxy(raw)).toThrow(TrustProxyError);
  });
});
