import { describe, expect, it } from 'vitest';
import { cidr } from './ipAddress.js';
import { resolveDestination, type HostResolver } from './resolveDestination.js';

const OPEN = { allowedCidrs: [] };
const answers =
  (table: Record<string, readonly string[]>): HostResolver =>
  async (hostname) => {
    const found = table[hostname];
    if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
const NOWHERE = answers({});

describe('resolving a destination under the address policy', () => {
  it('checks a literal without resolving it, and names its class', async () => {
    let asked = 0;
    const counting: HostResolver = async () => {
      asked += 1;
      return ['8.8.8.8'];
    };
    expect(await resolveDestination('127.0.0.1', OPEN, counting)).toEqual({
      ok: false,
      refusal: 'refused_address',
      addressClass: 'loopback',
    });
    expect(await resolveDestination('[::ffff:a9fe:a9fe]', OPEN, counting)).toEqual({
      ok: false,
      refusal: 'refused_address',
      addressClass: 'link_local',
    });
    expect(await resolveDestination('93.184.215.14', OPEN, counting)).toEqual({
      ok: true,
      addresses: [{ address: '93.184.215.14', family: 4 }],
    });
    expect(await resolveDestination('[2606:4700::1]', OPEN, counting)).toEqual({
      ok: true,
      addresses: [{ address: '2606:4700::1', family: 6 }],
    });
    expect(asked).toBe(0);
  });

  it('treats localhost names as loopback whatever the resolver says (RFC 6761)', async () => {
    const lying = answers({ localhost: ['8.8.8.8'], 'api.localhost': ['8.8.8.8'] });
    for (const name of ['localhost', 'LOCALHOST', 'localhost.', 'api.localhost']) {
      expect(await resolveDestination(name, OPEN, lying)).toEqual({
        ok: false,
        refusal: 'refused_address',
        addressClass: 'loopback',
      });
    }
    expect(await resolveDestination('localhost', { allowedCidrs: [cidr('127.0.0.0/8')] }, lying)).toEqual({
      ok: true,
      addresses: [{ address: '127.0.0.1', family: 4 }],
    });
  });

  it('refuses a hostname that resolves only to refused addresses, and one that does not resolve, with one answer', async () => {
    const dns = answers({
      'internal.example': ['10.0.0.5', '127.0.0.1'],
      'metadata.example': ['169.254.169.254'],
      'v6.example': ['::1', 'fe80::1%eth0'],
    });
    const refused = { ok: false, refusal: 'no_admitted_address' };
    expect(await resolveDestination('internal.example', OPEN, dns)).toEqual(refused);
    expect(await resolveDestination('metadata.example', OPEN, dns)).toEqual(refused);
    expect(await resolveDestination('v6.example', OPEN, dns)).toEqual(refused);
    expect(await resolveDestination('missing.example', OPEN, dns)).toEqual(refused);
    expect(await resolveDestination('internal.example', OPEN, answers({ 'internal.example': [] }))).toEqual(refused);
  });

  it('pins to the admitted addresses only, in resolver order', async () => {
    const dns = answers({ 'mixed.example': ['127.0.0.1', '2606:4700::1', '10.0.0.5', '93.184.215.14'] });
    expect(await resolveDestination('mixed.example', OPEN, dns)).toEqual({
      ok: true,
      addresses: [
        { address: '2606:4700::1', family: 6 },
        { address: '93.184.215.14', family: 4 },
      ],
    });
    expect(await resolveDestination('mixed.example', { allowedCidrs: [cidr('10.0.0.0/8')] }, dns)).toMatchObject({
      addresses: [{ address: '2606:4700::1' }, { address: '10.0.0.5' }, { address: '93.184.215.14' }],
    });
  });

  it('asks the resolver every time, so a name that now resolves to loopback is refused (DNS rebinding)', async () => {
    const seq = [['93.184.215.14'], ['127.0.0.1']];
    const rebinding: HostResolver = async () => seq.shift() ?? [];
    expect(await resolveDestination('rebind.example', OPEN, rebinding)).toMatchObject({ ok: true });
    expect(await resolveDestination('rebind.example', OPEN, rebinding)).toEqual({
      ok: false,
      refusal: 'no_admitted_address',
    });
  });

  it('the operator admits a range, and exactly that range', async () => {
    const dns = answers({ 'a.lan': ['192.168.10.7'], 'b.lan': ['192.168.11.7'] });
    const policy = { allowedCidrs: [cidr('192.168.10.0/24')] };
    expect(await resolveDestination('a.lan', policy, dns)).toMatchObject({ ok: true });
    expect(await resolveDestination('b.lan', policy, dns)).toMatchObject({ ok: false });
    expect(await resolveDestination('192.168.10.255', policy, NOWHERE)).toMatchObject({ ok: true });
    expect(await resolveDestination('192.168.9.255', policy, NOWHERE)).toMatchObject({
      ok: false,
      addressClass: 'private',
    });
  });
});
