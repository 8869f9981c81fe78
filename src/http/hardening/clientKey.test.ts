import { describe, expect, it } from 'vitest';
import { clientKeyOf } from './clientKey.js';

describe('clientKeyOf', () => {
  it('keys IPv4 by the full address', () => {
    expect(clientKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('203.0.113.8')).not.toBe(clientKeyOf('203.0.113.7'));
  });

  it('keys IPv6 by its /64, whatever the notation', () => {
    const key = '2001:db8:1:2::/64'; // @fastify/rate-limit's normalizeIP, canonical form
    expect(clientKeyOf('2001:db8:1:2::1')).toBe(key);
    expect(clientKeyOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientKeyOf('2001:DB8:1:2:a:b:c:d')).toBe(key);
    expect(clientKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8::/64');
    expect(clientKeyOf('fe80::1%eth0')).toBe('fe80::/64');
    expect(clientKeyOf('64:ff9b::192.0.2.1')).toBe('64:ff9b::/64');
  });

  it('keys IPv4-mapped IPv6 as the IPv4 address, in either notation', () => {
    expect(clientKeyOf('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(clientKeyOf('::ffff:7f00:1')).toBe('127.0.0.1');
  });

  it('bounds anything else (only a trusted proxy can supply it) and names a missing address', () => {
    expect(clientKeyOf('x'.repeat(1_000))).toHaveLength(64);
    expect(clientKeyOf(undefined)).toBe('unknown');
    expect(clientKeyOf('')).toBe('unknown');
  });
});
