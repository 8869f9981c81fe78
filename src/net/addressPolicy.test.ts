import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAddress, classifyAddress, type AddressClass } from './addressPolicy.js';
import { cidr, cidrContains, parseCidr, parseIp, type IpAddress } from './ipAddress.js';

/** The address a URL's host names, after the WHATWG parser has had its say (as every caller sees it). */
const hostAddress = (url: string): IpAddress => {
  const parsed = parseIp(new URL(url).hostname);
  if (parsed === undefined) throw new Error(`${url} does not name an address`);
  return parsed;
};
const classOf = (url: string): AddressClass => classifyAddress(hostAddress(url));
const OPEN = { allowedCidrs: [] };

describe('address classes', () => {
  it.each<[string, AddressClass]>([
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.255.255.254/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link_local'],
    ['http://[fe80::1]/', 'link_local'],
    ['http://[fc00::1]/', 'unique_local'],
    ['http://[fd00:ec2::254]/', 'unique_local'],
    ['http://100.64.0.1/', 'shared'],
    ['http://100.100.100.200/', 'shared'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://255.255.255.255/', 'reserved'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://192.0.0.192/', 'reserved'],
    ['http://192.0.2.10/', 'documentation'],
    ['http://198.51.100.7/', 'documentation'],
    ['http://203.0.113.9/', 'documentation'],
    ['http://[2001:db8::1]/', 'documentation'],
    ['http://198.18.0.1/', 'benchmarking'],
    ['http://[2001::1]/', 'reserved'],
    ['http://[2002:7f00:1::]/', 'reserved'],
    ['http://[100::1]/', 'reserved'],
    ['http://[::127.0.0.1]/', 'reserved'],
  ])('%s is %s', (url, expected) => {
    expect(classOf(url)).toBe(expected);
  });

  it.each([
    // The URL parser's numeric IPv4 forms: decimal, hex, octal, short dotted.
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://0/', 'unspecified'],
    ['http://0xa9.0xfe.0xa9.0xfe/', 'link_local'],
    ['http://2852039166/', 'link_local'],
    // IPv4-mapped IPv6 is the IPv4 address it reaches, in either spelling.
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[::ffff:169.254.169.254]/', 'link_local'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://[0:0:0:0:0:ffff:c0a8:0101]/', 'private'],
    // NAT64 carries the IPv4 address's class.
    ['http://[64:ff9b::7f00:1]/', 'loopback'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'link_local'],
  ])('%s is %s whatever its spelling', (url, expected) => {
    expect(classOf(url)).toBe(expected);
  });

  it.each([
    'http://93.184.215.14/',
    'http://8.8.8.8/',
    'http://[2606:4700::6810:84e5]/',
    'http://[::ffff:8.8.8.8]/',
    'http://[64:ff9b::808:808]/',
    'http://172.32.0.1/',
    'http://100.128.0.1/',
  ])('%s is public', (url) => {
    expect(classOf(url)).toBe('public');
  });

  it('reads IPv4-mapped IPv6 as the same address and class as its IPv4, for every IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(parseIp(`::ffff:${v4}`)).toEqual(parseIp(v4));
        expect(classifyAddress(hostAddress(`http://[::ffff:${v4}]/`))).toBe(classifyAddress(parseIp(v4)!));
      }),
    );
  });

  it('parses every IPv6 spelling the URL parser can produce to the same address', () => {
    fc.assert(
      fc.property(fc.ipV6(), (v6) => {
        expect(parseIp(new URL(`http://[${v6}]/`).hostname)).toEqual(parseIp(v6));
      }),
    );
  });

  it('is not fooled by hostnames that look like addresses', () => {
    expect(parseIp('127.0.0.1.nip.io')).toBeUndefined();
    expect(parseIp('localhost')).toBeUndefined();
    expect(parseIp('01.02.03.04')).toBeUndefined();
  });
});

describe('admitted ranges', () => {
  it('admit exactly the range, and nothing next to it', () => {
    const policy = { allowedCidrs: [cidr('10.1.2.0/24')] };
    expect(checkAddress(parseIp('10.1.2.0')!, policy)).toEqual({ admitted: true });
    expect(checkAddress(parseIp('10.1.2.255')!, policy)).toEqual({ admitted: true });
    expect(checkAddress(parseIp('10.1.1.255')!, policy)).toEqual({ admitted: false, addressClass: 'private' });
    expect(checkAddress(parseIp('10.1.3.0')!, policy)).toEqual({ admitted: false, addressClass: 'private' });
    expect(checkAddress(parseIp('127.0.0.1')!, policy)).toEqual({ admitted: false, addressClass: 'loopback' });
    expect(checkAddress(parseIp('::ffff:10.1.2.3')!, policy)).toEqual({ admitted: true });
  });

  it('keep IPv4 and IPv6 apart, except for the mapped form', () => {
    const v6 = { allowedCidrs: [cidr('::1/128')] };
    expect(checkAddress(parseIp('::1')!, v6).admitted).toBe(true);
    expect(checkAddress(parseIp('127.0.0.1')!, v6).admitted).toBe(false);
    expect(checkAddress(parseIp('::1')!, { allowedCidrs: [cidr('127.0.0.0/8')] }).admitted).toBe(false);
  });

  it('public addresses need no range; with none configured, every class above is refused', () => {
    expect(checkAddress(parseIp('8.8.8.8')!, OPEN)).toEqual({ admitted: true });
    expect(checkAddress(parseIp('169.254.169.254')!, OPEN)).toEqual({ admitted: false, addressClass: 'link_local' });
  });

  it('contains what the arithmetic says it contains', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 32 }), fc.ipV4(), (base, prefix, probe) => {
        const mask = prefix === 0 ? 0n : ((1n << 32n) - 1n) ^ ((1n << BigInt(32 - prefix)) - 1n);
        const network = parseIp(base)!.value & mask;
        const range = { version: 4 as const, base: network, prefix };
        expect(cidrContains(range, parseIp(probe)!)).toBe((parseIp(probe)!.value & mask) === network);
      }),
    );
  });

  it('parses ranges strictly', () => {
    expect(parseCidr('0.0.0.0/0')).toEqual({ version: 4, base: 0n, prefix: 0 });
    expect(parseCidr('[::1]/128')).toEqual({ version: 6, base: 1n, prefix: 128 });
    expect(parseCidr('::ffff:0:0/96')).toEqual({ version: 4, base: 0n, prefix: 0 });
    for (const bad of [
      '',
      '/8',
      '10.0.0.0/',
      '10.0.0.1/8',
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/-1',
      '10.0.0.0/ 8',
      'example.com/8',
    ]) {
      expect(parseCidr(bad), bad).toBeUndefined();
    }
  });
});
