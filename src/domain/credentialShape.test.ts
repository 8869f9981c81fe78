import { describe, expect, it } from 'vitest';
import { containsCredential, isCredentialShaped, redactCredentialText, redactCredentials } from './credentialShape.js';

describe('credential shapes', () => {
  it.each([
    `hlx_${'a'.repeat(43)}`,
    `hlxinv_${'b'.repeat(43)}`,
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig',
    'Bearer abcdefghijklmnop',
    'sk-abcdefghijklmnopqrstu',
    'ghp_abcdefghijklmnopqrstuvwx',
    '-----BEGIN RSA PRIVATE KEY-----',
  ])('recognizes %s', (value) => expect(isCredentialShaped(value)).toBe(true));

  it.each(['Explain how bearer tokens work', 'run_abc123', 'hlx_', 'The key eye'])('lets %s through', (value) =>
    expect(isCredentialShaped(value)).toBe(false),
  );

  it('finds credentials in nested keys and values', () => {
    expect(containsCredential({ a: [{ b: `x hlx_${'Z'.repeat(30)}` }] })).toBe(true);
    expect(containsCredential({ [`hlx_${'Z'.repeat(30)}`]: 1 })).toBe(true);
    expect(containsCredential({ objective: 'compare bearer and basic auth', n: 3 })).toBe(false);
  });

  it('redacts credential-shaped strings and keys at any depth, leaving the rest as it was', () => {
    const key = `hlx_${'Z'.repeat(30)}`;
    expect(
      redactCredentials({ player: { username: key, n: 3 }, items: ['stone', `Bearer ${'q'.repeat(20)}`], [key]: true }),
    ).toEqual({
      player: { username: '[redacted]', n: 3 },
      items: ['stone', '[redacted]'],
      '[redacted]': true,
    });
    expect(redactCredentials({ a: null, b: false, c: 'bearer tokens explained' })).toEqual({
      a: null,
      b: false,
      c: 'bearer tokens explained',
    });
  });

  it('redacts every credential-shaped run and keeps the prose around it', () => {
    const text = `item sk-${'a'.repeat(20)} and hlxsrc_${'B'.repeat(43)}, then Bearer abcdefghijklmnop here`;
    expect(redactCredentialText(text)).toBe('item [redacted] and [redacted], then [redacted] here');
    expect(redactCredentialText('Explain how bearer tokens work')).toBe('Explain how bearer tokens work');
  });
});
